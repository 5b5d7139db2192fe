/**
 * `.tool(name, declaration, body)` types the body from the declaration, so every mrtr wrapper
 * passed as the body types its handler's `args` from `input` with no annotation, and reading a
 * property the input lacks does not compile.
 */
import { McpResolveServer, outcome, resolver } from 'mcp-resolve';
import type { JournaledContext, SuspendingContext } from 'mcp-resolve/mrtr';
import { byEra, createContinuationStore, journaled, steps, suspending, withOnce } from 'mcp-resolve/mrtr';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const input = { location: z.string(), days: z.number().int().optional() };
type Args = { location: string; days?: number | undefined };

const server = () => new McpResolveServer({ name: 'test', version: '1.0.0' });
const store = createContinuationStore();

describe('resolver tools', () => {
  it('type a resolved parameter, and an outcome() one, in the body', () => {
    const units = resolver({ name: 'units' }, () => 'metric' as const);
    server()
      .tool('a', { input, resolve: { units } }, ({ location, units: u }) => {
        expectTypeOf(u).toEqualTypeOf<'metric'>();
        return location;
      })
      .tool('b', { input, resolve: { units: outcome(units) } }, ({ units: u }) => {
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
