/**
 * `.tool(name, declaration, body)` types the body from the declaration, so every mrtr wrapper
 * passed as the body types its handler's `args` from `input` with no annotation, and reading a
 * property the input lacks does not compile. The deprecated builder step
 * `.tool(name, declaration).handle(body)` still types the same way.
 */
import type { ToolStep } from 'mcp-resolve';
import { McpResolveServer, outcome, resolver } from 'mcp-resolve';
import type {
  JournaledContext,
  LinearContext,
  LinearHandler,
  LinearOptions,
  SuspendingContext,
  SuspendingHandler,
  SuspendingOptions,
} from 'mcp-resolve/mrtr';
import { byEra, createContinuationStore, journaled, linear, steps, suspending, withOnce } from 'mcp-resolve/mrtr';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const input = { location: z.string(), days: z.number().int().optional() };
type Args = { location: string; days?: number | undefined };

const server = () => new McpResolveServer({ name: 'test', version: '1.0.0' });
const store = createContinuationStore();

describe('the deprecated .tool(name, declaration) without a body', () => {
  it('returns a step whose handle() registers the tool and returns the server for chaining', () => {
    const step = server().tool('weather', { input });
    expectTypeOf(step).toEqualTypeOf<ToolStep<McpResolveServer, typeof input, Record<never, never>, undefined>>();
    expectTypeOf(step.handle(({ location }) => location)).toEqualTypeOf<McpResolveServer>();
  });

  it('still takes a resolver tool in one call, and a resolver tool through the step', () => {
    const units = resolver({ name: 'units' }, () => 'metric' as const);
    server()
      .tool('a', { input, resolve: { units } }, ({ location, units: u }) => {
        expectTypeOf(u).toEqualTypeOf<'metric'>();
        return location;
      })
      .tool('b', { input, resolve: { units: outcome(units) } })
      .handle(({ units: u }) => {
        expectTypeOf(u.action).toEqualTypeOf<'accept' | 'decline' | 'cancel'>();
        return 'ok';
      });
  });
});

describe('wrappers infer args from the input', () => {
  it('journaled', () => {
    server().tool(
      'weather',
      { input },
      journaled(async (args, ctx) => {
        expectTypeOf(ctx).toEqualTypeOf<JournaledContext>();
        expectTypeOf(args).toEqualTypeOf<Args>();
        // @ts-expect-error - 'city' is not in the input
        void args.city;
        return args.location;
      }),
    );
  });

  it('suspending', () => {
    server().tool(
      'weather',
      { input },
      suspending(
        async (args, ctx) => {
          expectTypeOf(ctx).toEqualTypeOf<SuspendingContext>();
          expectTypeOf(args).toEqualTypeOf<Args>();
          // @ts-expect-error - 'city' is not in the input
          void args.city;
          return args.location;
        },
        { store },
      ),
    );
  });

  it('linear and its types: deprecated aliases of suspending', () => {
    expectTypeOf(linear).toEqualTypeOf(suspending);
    expectTypeOf<LinearContext>().toEqualTypeOf<SuspendingContext>();
    expectTypeOf<LinearHandler<Args>>().toEqualTypeOf<SuspendingHandler<Args>>();
    expectTypeOf<LinearOptions>().toEqualTypeOf<SuspendingOptions>();
  });

  it('withOnce', () => {
    server().tool(
      'weather',
      { input },
      withOnce((args) => {
        expectTypeOf(args).toEqualTypeOf<Args>();
        // @ts-expect-error - 'city' is not in the input
        void args.city;
        return args.location;
      }),
    );
  });

  it('byEra', () => {
    server().tool(
      'weather',
      { input },
      byEra({
        modern: (args) => {
          expectTypeOf(args).toEqualTypeOf<Args>();
          return args.location;
        },
        legacy: (args) => {
          // @ts-expect-error - 'city' is not in the input
          void args.city;
          return args.location;
        },
      }),
    );
  });

  it('journaled, on the deprecated builder step', () => {
    server()
      .tool('weather', { input })
      .handle(
        journaled(async (args) => {
          expectTypeOf(args).toEqualTypeOf<Args>();
          return args.location;
        }),
      );
  });

  it('steps', () => {
    server().tool(
      'weather',
      { input },
      steps((step) =>
        step
          .ask('units', (args) => {
            expectTypeOf(args).toEqualTypeOf<Args>();
            return 'metric';
          })
          // @ts-expect-error - 'city' is not in the input
          .end((args, _ctx, { units }) => `${args.city} ${units}`),
      ),
    );
  });

  it('a wrapper that returns a string body does not fit a tool with a structured output', () => {
    server().tool(
      'weather',
      { input, output: z.object({ t: z.number() }) },
      // @ts-expect-error - wrappers return text or a tool result, not the structured value
      journaled(async ({ location }, _ctx) => location),
    );
  });
});
