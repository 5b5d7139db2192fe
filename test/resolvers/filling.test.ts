/** resolvers.md §4 [C]: arguments are validated once per request before resolvers run; sync and async resolvers; no needless round trips. */
import type { Resolver, ToolContext } from 'mcp-resolve';
import { elicit, resolver } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { call, connect, ERAS, newServer, textOf } from './helpers.js';

const Name = z.object({ name: z.string() });

describe.each(ERAS)('filling and running (%s)', (era) => {
  it('[C1] arguments are validated before any resolver runs, once per request', async () => {
    const events: string[] = [];
    const checked = z.string().refine((value) => {
      events.push('validate');
      return value.length > 0;
    });
    const first = resolver({ name: 'first', args: { id: checked } }, ({ id }) => {
      events.push('resolver');
      return id;
    });
    const asks = resolver({ name: 'asks', deps: { first } }, ({ first: id }) => {
      events.push('asks');
      return elicit(`name for ${id}?`, Name);
    });
    const server = newServer().tool('t', { input: { id: checked }, resolve: { first, who: asks } }, ({ id, who }) => {
      events.push('body');
      return `${id}:${who.name}`;
    });
    const connection = await connect(server, { era, elicit: () => ({ action: 'accept', content: { name: 'Ann' } }) });
    const result = await call(connection, 't', { id: 'x1' });
    expect(textOf(result)).toBe('x1:Ann');
    // One request per modern leg: each validates once, then runs its resolvers.
    const perRequest = era === 'modern' ? ['validate', 'resolver', 'asks'] : [];
    expect(events).toEqual([...perRequest, 'validate', 'resolver', 'asks', 'body']);
    expect(connection.counters.legs['tools/call']).toBe(era === 'modern' ? 2 : 1);
  });

  it('[C1] invalid arguments fail the call before any resolver runs', async () => {
    let runs = 0;
    const first = resolver({ name: 'first', args: { n: z.number() } }, ({ n }) => {
      runs++;
      return n;
    });
    const server = newServer().tool('t', { input: { n: z.number().int() }, resolve: { first } }, () => 'ran');
    const connection = await connect(server, { era });
    const result = await call(connection, 't', { n: 'nope' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Input validation error');
    expect(runs).toBe(0);
  });

  it('[C1] resolvers and the body see the same validated values, defaults applied once', async () => {
    let defaults = 0;
    const seen: unknown[] = [];
    const input = {
      id: z.string().transform((value) => value.trim().toUpperCase()),
      page: z.object({ size: z.number() }).default(() => ({ size: 10 + defaults++ })),
    };
    const first = resolver({ name: 'first', args: input }, ({ id, page }) => {
      seen.push(['resolver', id, page]);
      return page;
    });
    const second = resolver(
      { name: 'second', args: { page: input.page }, deps: { first } },
      ({ page, first: fromFirst }) => {
        seen.push(['second', page === fromFirst]);
        return page.size;
      },
    );
    const server = newServer().tool(
      't',
      { input, resolve: { first, size: second } },
      ({ id, page, first: fromFirst, size }) => {
        seen.push(['body', id, page, page === fromFirst, size]);
        return 'ok';
      },
    );
    const connection = await connect(server, { era });
    // Registration may render the default into the advertised JSON Schema: count from here.
    const before = defaults;
    expect(textOf(await call(connection, 't', { id: '  ab ' }))).toBe('ok');
    expect(defaults - before).toBe(1);
    const size = 10 + before;
    expect(seen).toEqual([
      ['resolver', 'AB', { size }],
      ['second', true],
      ['body', 'AB', { size }, true, size],
    ]);
  });

  it('[C2] sync and async resolvers both work, in any mix', async () => {
    const syncValue = resolver({ name: 'syncValue' }, () => 2);
    const asyncValue = resolver({ name: 'asyncValue', deps: { syncValue } }, async ({ syncValue: two }) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return two * 10;
    });
    const asyncAsk = resolver({ name: 'asyncAsk', deps: { asyncValue } }, async ({ asyncValue: twenty }) => {
      await Promise.resolve();
      return elicit(`confirm ${twenty}?`, Name);
    });
    const syncOnAsync = resolver({ name: 'syncOnAsync', deps: { asyncAsk } }, ({ asyncAsk: who }) => `${who.name}!`);
    const server = newServer().tool(
      't',
      { resolve: { a: syncValue, b: asyncValue, c: syncOnAsync } },
      ({ a, b, c }) => `${a}|${b}|${c}`,
    );
    const connection = await connect(server, { era, elicit: () => ({ action: 'accept', content: { name: 'Bo' } }) });
    expect(textOf(await call(connection, 't'))).toBe('2|20|Bo!');
  });

  it("[C2] the context resolvers receive is the tool's context", async () => {
    const contexts: Array<[string, ToolContext]> = [];
    const probe = resolver({ name: 'probe' }, (_input, ctx) => {
      contexts.push(['resolver', ctx]);
      return ctx.era;
    });
    const asyncProbe = resolver({ name: 'asyncProbe', deps: { probe } }, async (_input, ctx) => {
      contexts.push(['asyncResolver', ctx]);
      return ctx.mcpReq.id;
    });
    const server = newServer().tool('t', { resolve: { era: probe, id: asyncProbe } }, ({ era: seenEra, id }, ctx) => {
      contexts.push(['body', ctx]);
      return JSON.stringify({ seenEra, sameId: id === ctx.mcpReq.id });
    });
    const connection = await connect(server, { era });
    expect(JSON.parse(textOf(await call(connection, 't')))).toEqual({ seenEra: era, sameId: true });
    const [fromResolver, fromAsync, fromBody] = contexts.map(([, ctx]) => ctx);
    expect(contexts.map(([who]) => who)).toEqual(['resolver', 'asyncResolver', 'body']);
    expect(fromResolver?.era).toBe(era);
    expect(fromResolver?.mcpReq.id).toBe(fromBody?.mcpReq.id);
    expect(fromAsync?.mcpReq.id).toBe(fromBody?.mcpReq.id);
    expect(fromResolver?.mcpReq.signal).toBe(fromBody?.mcpReq.signal);
  });

  it('[C3] resolvers that answer by themselves complete in one request with no client interaction, even with no capabilities', async () => {
    const base = resolver({ name: 'base', args: { n: z.number() } }, ({ n }) => n * 2);
    const maybeAsk = resolver({ name: 'maybeAsk', deps: { base } }, ({ base: doubled }) =>
      doubled > 100 ? elicit('big?', Name) : { name: 'small' },
    );
    const server = newServer().tool(
      't',
      { input: { n: z.number() }, resolve: { base, who: maybeAsk } },
      ({ base: b, who }) => `${b}:${who.name}`,
    );
    const connection = await connect(server, { era, capabilities: {} });
    expect(textOf(await call(connection, 't', { n: 3 }))).toBe('6:small');
    expect(connection.counters.legs).toEqual({ 'tools/call': 1 });
    expect(connection.counters.pushes).toBe(0);
    expect(connection.counters.questions).toEqual({});
  });

  it('[C3] a resolver and its question made by another copy of the package (built apart, the same plain brands) are served', async () => {
    // What another copy's `elicit(...)` and `resolver(...)` return: plain objects with the same `'~kind'` fields.
    const question = { '~kind': 'elicit', message: 'Your name?', schema: Name, options: {} };
    const foreign: Resolver<{ name: string }> = {
      '~kind': 'resolver',
      name: 'who',
      args: {},
      deps: {},
      fn: () => question,
    };
    // A computed value that merely has a `kind` field is a value, not a question.
    const plain = resolver({ name: 'plain' }, () => ({ kind: 'elicit', message: 'a value' }));
    const server = newServer().tool('t', { resolve: { who: foreign, plain } }, ({ who, plain: value }) => {
      return `${who.name}:${value.message}`;
    });
    const connection = await connect(server, { era, elicit: () => ({ action: 'accept', content: { name: 'Ann' } }) });
    expect(textOf(await call(connection, 't'))).toBe('Ann:a value');
    expect(connection.counters.questions).toEqual({ 'elicitation/create': 1 });
  });
});
