/** resolvers.md §1 typing and §3 [B]: the tool body's types are inferred from the declarations, and wrong use does not compile. */
import type {
  CreateMessageResult,
  CreateMessageResultWithTools,
  Root,
  StandardSchemaV1,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import type {
  DeclarationError,
  Elicit,
  ElicitationResult,
  FlatForm,
  SampleResult,
  ToolContext,
  ValueOf,
} from 'mcp-resolve';
import { inputRequired } from '@modelcontextprotocol/server';
import { elicit, listRoots, McpResolveServer, outcome, resolver, sample } from 'mcp-resolve';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const Scope = z.object({ full: z.boolean(), sku: z.string().optional() });
type Scope = z.output<typeof Scope>;

const server = () => new McpResolveServer({ name: 'test', version: '1.0.0' });

const scope = resolver({ name: 'scope', args: { order_id: z.string() } }, ({ order_id }): Scope | Elicit<Scope> =>
  order_id === 'ORD-7001' ? { full: true } : elicit(`${order_id}: whole order, or one SKU?`, Scope),
);
const cents = resolver({ name: 'cents', deps: { scope } }, ({ scope: s }) => (s.full ? 4800 : 1800));
const poem = resolver({ name: 'poem' }, () =>
  sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }),
);
const roots = resolver({ name: 'roots' }, () => listRoots());

describe('inferred parameter types', () => {
  it('[§1] an unwrapped resolver returning Scope | Elicit<Scope> gives the body Scope', () => {
    expectTypeOf<ValueOf<typeof scope>>().toEqualTypeOf<Scope>();
    server().tool('t', { input: { order_id: z.string() }, resolve: { scope } }, ({ order_id, scope: s }) => {
      expectTypeOf(order_id).toEqualTypeOf<string>();
      expectTypeOf(s).toEqualTypeOf<Scope>();
      return 'ok';
    });
  });

  it('[§1] outcome(resolver) gives the body ElicitationResult<Scope>', () => {
    server().tool('t', { input: { order_id: z.string() }, resolve: { scope: outcome(scope) } }, ({ scope: s }) => {
      expectTypeOf(s).toEqualTypeOf<ElicitationResult<Scope>>();
      if (s.action === 'accept') expectTypeOf(s.value).toEqualTypeOf<Scope>();
      return 'ok';
    });
  });

  it('[§1] a resolver consuming another receives the unwrapped value, or the outcome when asked for it', () => {
    resolver({ deps: { plain: scope, full: outcome(scope) } }, ({ plain, full }) => {
      expectTypeOf(plain).toEqualTypeOf<Scope>();
      expectTypeOf(full).toEqualTypeOf<ElicitationResult<Scope>>();
      return null;
    });
    server().tool('t', { input: { order_id: z.string() }, resolve: { cents } }, ({ cents: c }) => {
      expectTypeOf(c).toEqualTypeOf<number>();
      return 'ok';
    });
  });

  it('[§1] sample gives CreateMessageResult | CreateMessageResultWithTools; listRoots gives Root[]', () => {
    server().tool('t', { resolve: { poem, roots } }, ({ poem: p, roots: r }, ctx) => {
      expectTypeOf(p).toEqualTypeOf<CreateMessageResult | CreateMessageResultWithTools>();
      expectTypeOf(p).toEqualTypeOf<SampleResult>();
      expectTypeOf(r).toEqualTypeOf<Root[]>();
      expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
      return 'ok';
    });
  });

  it('[§1] sample and listRoots have no decline arm only when unwrapped; outcome() still types the union', () => {
    server().tool('t', { resolve: { r: outcome(roots) } }, ({ r }) => {
      expectTypeOf(r).toEqualTypeOf<ElicitationResult<Root[]>>();
      return 'ok';
    });
  });

  it('[§1] the resolver function receives its declared arguments, typed by their schemas, and the context', () => {
    resolver({ args: { n: z.number(), tags: z.array(z.string()) } }, ({ n, tags }, ctx) => {
      expectTypeOf(n).toEqualTypeOf<number>();
      expectTypeOf(tags).toEqualTypeOf<string[]>();
      expectTypeOf(ctx.era).toEqualTypeOf<'modern' | 'legacy'>();
      return n;
    });
  });
});

describe('wrong use does not compile', () => {
  it('[B2] a resolver reading an argument the tool does not have (order_idd)', () => {
    const typo = resolver({ name: 'typo', args: { order_idd: z.string() } }, ({ order_idd }) => order_idd);
    // The same resolver on a tool that has the argument compiles.
    server().tool('ok', { input: { order_idd: z.string() }, resolve: { order: typo } }, ({ order }) => order);
    server().tool(
      't',
      // @ts-expect-error - 'order_idd' is not an argument of the tool
      { input: { order_id: z.string() }, resolve: { order: typo } },
      () => 'never',
    );
    const deep = resolver({ deps: { typo } }, ({ typo: t }) => t.length);
    server().tool(
      't',
      // @ts-expect-error - a dependency of the resolver reads 'order_idd', which the tool lacks
      { input: { order_id: z.string() }, resolve: { deep } },
      () => 'never',
    );
  });

  it('[B2] a resolver reading an argument of a tool with no input at all', () => {
    const reads = resolver({ name: 'reads', args: { missing: z.string() } }, ({ missing }) => missing);
    // @ts-expect-error - the tool has no input, so it has no 'missing' argument
    server().tool('t', { resolve: { r: reads } }, () => 'never');
    // @ts-expect-error - an empty input has no 'missing' argument either
    server().tool('t', { input: {}, resolve: { r: reads } }, () => 'never');
  });

  it('[B2] a resolver argument with a type the tool argument does not have', () => {
    const numeric = resolver({ name: 'numeric', args: { order_id: z.number() } }, ({ order_id }) => order_id * 2);
    server().tool(
      'ok',
      { input: { order_id: z.number() }, resolve: { doubled: numeric } },
      ({ doubled }) => `${doubled}`,
    );
    server().tool(
      't',
      // @ts-expect-error - the tool's order_id is a string, the resolver reads a number
      { input: { order_id: z.string() }, resolve: { doubled: numeric } },
      () => 'never',
    );
  });

  it('[§1] a number-valued resolver cannot be used as a string in the body', () => {
    server().tool('t', { input: { order_id: z.string() }, resolve: { cents } }, ({ cents: c }) => {
      // @ts-expect-error - cents is a number
      const asText: string = c;
      const shout = (text: string): string => text.toUpperCase();
      // @ts-expect-error - cents is not a string argument
      shout(c);
      return asText;
    });
  });

  it('[B3] the body of a tool with resolved parameters cannot return input_required itself', () => {
    const handBuilt = () => inputRequired({ inputRequests: { q: inputRequired.listRoots() } });
    // Without resolved parameters the body drives the flow itself: allowed.
    server().tool('t', { input: { order_id: z.string() } }, handBuilt);
    server().tool(
      't',
      { input: { order_id: z.string() }, resolve: { cents } },
      // @ts-expect-error - a tool with resolved parameters cannot return an input_required result
      handBuilt,
    );
  });

  it('[B4] a resolver returning two marker kinds is a declaration error, and cannot be used', () => {
    const both = resolver({ name: 'both', args: { flag: z.boolean() } }, ({ flag }) =>
      flag ? elicit('?', Scope) : sample({ messages: [], maxTokens: 1 }),
    );
    expectTypeOf(both).toEqualTypeOf<
      DeclarationError<'A resolver asks one kind of question: this one returns two of elicit(...), sample(...), listRoots()'>
    >();
    const rootsOrElicit = resolver({}, async () => (Math.random() > 0.5 ? listRoots() : elicit('?', Scope)));
    expectTypeOf(rootsOrElicit).toExtend<DeclarationError<string>>();
    server().tool(
      't',
      // @ts-expect-error - a declaration error is not a resolver
      { input: { flag: z.boolean() }, resolve: { v: both } },
      () => 'never',
    );
    // @ts-expect-error - a declaration error cannot be a dependency either
    resolver({ deps: { v: both } }, () => 1);
  });

  it('[§1] an outcome consumer must branch before reading the value', () => {
    server().tool('t', { input: { order_id: z.string() }, resolve: { s: outcome(scope) } }, ({ s }) => {
      // @ts-expect-error - declined and cancelled outcomes have no value
      return String(s.value.full);
    });
  });
});

describe('flat forms (issue 23 item 10: a nested form is caught at compile time)', () => {
  it('accepts a flat form: strings, numbers, booleans, enums, optional fields and multi-selects', () => {
    const form = z.object({
      room: z.string(),
      seats: z.number().int().optional(),
      projector: z.boolean(),
      floor: z.enum(['1', '2']),
      extras: z.array(z.enum(['tea', 'coffee'])),
    });
    expectTypeOf(elicit('Book?', form)).toEqualTypeOf<Elicit<z.output<typeof form>>>();
  });

  it('refuses a nested object or a date field, naming it', () => {
    // @ts-expect-error - address is a nested object: not a form field
    elicit('Where?', z.object({ name: z.string(), address: z.object({ street: z.string() }) }));
    // @ts-expect-error - a date is not a form field
    elicit('When?', z.object({ when: z.date() }));
    type Nested = FlatForm<{ name: string; address: { street: string } }>;
    expectTypeOf<Nested[keyof Nested]>().toEqualTypeOf<'address'>();
  });

  it('lets a wrapper generic over the schema pass the check on to its callers', () => {
    const ask = <TSchema extends StandardSchemaWithJSON>(
      schema: TSchema & FlatForm<StandardSchemaV1.InferOutput<TSchema>>,
    ) => elicit('Which?', schema);
    expectTypeOf(ask(z.object({ pick: z.string() }))).toEqualTypeOf<Elicit<{ pick: string }>>();
    // @ts-expect-error - the wrapper's caller is checked too
    ask(z.object({ pick: z.object({ id: z.string() }) }));
  });
});
