/** resolvers.md §3 [B]: the graph is analysed when the tool is registered; a bad graph throws before any client connects. */
import { inputRequired } from '@modelcontextprotocol/server';
import type { AnyResolver } from 'mcp-resolve';
import { elicit, McpResolveError, resolver } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { call, connect, ERAS, newServer, textOf } from './helpers.js';

/** Registration error of `register`, or fails the test when it does not throw. */
function registrationError(register: () => unknown): McpResolveError {
  try {
    register();
  } catch (error) {
    if (error instanceof McpResolveError) return error;
    throw error;
  }
  return expect.fail('registration did not throw');
}

describe('registration-time analysis', () => {
  it('[B1] a cycle throws at registration, naming the resolver', () => {
    // The dependency map is read at registration, so filling it after both resolvers exist closes the loop.
    const bDeps: Record<string, AnyResolver> = {};
    const b = resolver({ name: 'b', deps: bDeps }, () => 1);
    const a = resolver({ name: 'a', deps: { b } }, () => 2);
    bDeps.a = a;
    const error = registrationError(() => newServer().tool('loop', { resolve: { x: a } }, () => 'never'));
    expect(error.message).toBe(
      "Resolver 'a' has a cyclic dependency: a -> b -> a. Break the cycle: a resolver cannot depend on itself through its deps.",
    );
  });

  it('[B1] a resolver depending on itself is a cycle', () => {
    const selfDeps: Record<string, AnyResolver> = {};
    const self = resolver({ name: 'self', deps: selfDeps }, () => 1);
    selfDeps.me = self;
    const error = registrationError(() => newServer().tool('loop', { resolve: { x: self } }, () => 'never'));
    expect(error.message).toContain("Resolver 'self' has a cyclic dependency");
  });

  it('[B1] a cycle closed through a forward-referencing deps getter is reported as a cycle', () => {
    const later: { a: AnyResolver } = { a: resolver({ name: 'placeholder' }, () => 0) };
    const b = resolver(
      {
        name: 'b',
        get deps() {
          return { a: later.a };
        },
      },
      () => 1,
    );
    later.a = resolver({ name: 'a', deps: { b } }, () => 2);
    const error = registrationError(() => newServer().tool('loop', { resolve: { x: later.a } }, () => 'never'));
    expect(error.message).toMatch(/^Resolver '(a|b)' has a cyclic dependency/);
  });

  it('[B2] a resolver reading an argument the tool does not have throws, naming resolver and parameter', () => {
    const order = resolver({ name: 'order', args: { order_idd: z.string() } }, ({ order_idd }) => order_idd);
    const error = registrationError(() =>
      newServer().tool(
        'refund',
        // @ts-expect-error - 'order_idd' is not an argument of the tool (the runtime check is what is tested)
        { input: { order_id: z.string() }, resolve: { order } },
        () => 'never',
      ),
    );
    expect(error.message).toContain("Resolver 'order' parameter 'order_idd' cannot be resolved: ");
  });

  it('[B2] a transitive dependency reading a missing argument is found too', () => {
    const deep = resolver({ name: 'deep', args: { tenant: z.string() } }, ({ tenant }) => tenant);
    const top = resolver({ name: 'top', deps: { deep } }, ({ deep: value }) => value);
    const error = registrationError(() =>
      // @ts-expect-error - 'tenant' is not an argument of the tool (the runtime check is what is tested)
      newServer().tool('t', { input: { id: z.string() }, resolve: { top } }, () => 'never'),
    );
    expect(error.message).toContain("Resolver 'deep' parameter 'tenant' cannot be resolved: ");
  });

  it('[B2] the analysis runs before any client connects: the server is never served', () => {
    const order = resolver({ name: 'order', args: { missing: z.string() } }, () => 1);
    const server = newServer();
    // @ts-expect-error - 'missing' is not an argument of the tool (the runtime check is what is tested)
    expect(() => server.tool('t', { input: { other: z.string() }, resolve: { order } }, () => 'x')).toThrow(
      McpResolveError,
    );
  });

  it('[B4] one question kind plus plain values registers (two kinds are a compile error: types.test-d.ts)', () => {
    const both = resolver({ name: 'both', args: { flag: z.boolean() } }, ({ flag }) =>
      flag ? elicit('?', z.object({ a: z.string() })) : { a: 'x' },
    );
    // One kind of question plus plain values is fine: it registers.
    expect(() =>
      newServer().tool('ok', { input: { flag: z.boolean() }, resolve: { v: both } }, () => 'x'),
    ).not.toThrow();
  });
});

describe.each(ERAS)('resolvers and a hand-built input_required result (%s)', (era) => {
  it('[B3] a tool with resolved parameters that returns input_required itself fails the call with the mixed-flow error', async () => {
    const value = resolver({ name: 'value' }, () => 1);
    let bodyRuns = 0;
    const server = newServer().tool(
      'mixed',
      { resolve: { value } },
      // @ts-expect-error - the body of a tool with resolved parameters cannot return input_required (runtime check tested)
      () => {
        bodyRuns++;
        return inputRequired({
          inputRequests: {
            q: inputRequired.elicit({ message: 'hand-built?', requestedSchema: { type: 'object', properties: {} } }),
          },
        });
      },
    );
    const connection = await connect(server, { era, elicit: () => ({ action: 'accept', content: {} }) });
    const result = await call(connection, 'mixed');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('the multi-round flow is driven either by resolvers or by the tool body');
    expect(bodyRuns).toBe(1);
    expect(connection.counters.questions).toEqual({});
  });

  it('[B3] a prompt with resolved parameters that returns input_required itself fails with the same rule, as a JSON-RPC error', async () => {
    const value = resolver({ name: 'value' }, () => 1);
    const server = newServer().prompt('mixed', { resolve: { value } }, () =>
      // @ts-expect-error - a prompt body with resolved parameters cannot return input_required (runtime check tested)
      inputRequired({
        inputRequests: {
          q: inputRequired.elicit({ message: 'hand-built?', requestedSchema: { type: 'object', properties: {} } }),
        },
      }),
    );
    const connection = await connect(server, { era, elicit: () => ({ action: 'accept', content: {} }) });
    await expect(connection.client.getPrompt({ name: 'mixed' })).rejects.toMatchObject({
      code: -32603,
      message:
        'the multi-round flow is driven either by resolvers or by the prompt body: a prompt with resolved parameters cannot return input_required itself',
    });
  });
});
