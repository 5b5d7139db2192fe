/**
 * The error classes: one root (`ToolError` is a `McpResolveError` with code 'tool_error'),
 * `instanceof` by brand for the library's classes (so it holds across two copies of the package:
 * a second copy is the same module loaded again under another specifier),
 * by prototype chain for an author's subclasses, and typed `data` per code.
 */
import type { McpResolveErrorCode, McpResolveErrorData } from 'mcp-resolve';
import { McpResolveServer, resolver } from 'mcp-resolve';
import { ElicitationDeclinedError } from 'mcp-resolve/mrtr';
import { connectRedisFleet } from 'mcp-resolve/redis';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

import type * as ErrorsModule from '../src/errors.js';
import { McpResolveError, ToolError } from '../src/errors.js';
import type * as SuspendingModule from '../src/mrtr/suspending.js';
import { isClientFacing } from '../src/round/masking.js';
import { createSealer } from '../src/state/sealer.js';

class OrderNotFound extends ToolError {}
class PaymentDeclined extends ToolError {}
class StoreDown extends McpResolveError<'redis_unavailable'> {}

/** Another copy of `module` (relative to this file): the same source loaded again, with classes of its own. */
async function copyOf<T>(module: string): Promise<T> {
  return (await import(`${module}?copy`)) as T;
}

/** The error `run` throws, or fails the test when it does not throw one of the library's. */
function thrownBy(run: () => unknown): McpResolveError {
  try {
    run();
  } catch (error) {
    if (error instanceof McpResolveError) return error;
    throw error;
  }
  return expect.fail('nothing was thrown');
}

describe('error classes and instanceof', () => {
  it('a subclass of ToolError matches its own instances only', () => {
    const missing = new OrderNotFound('unknown order');
    expect(missing instanceof OrderNotFound).toBe(true);
    expect(missing instanceof ToolError).toBe(true);
    expect(missing instanceof McpResolveError).toBe(true);
    expect(new ToolError('x') instanceof OrderNotFound).toBe(false);
    expect(new PaymentDeclined('no') instanceof OrderNotFound).toBe(false);
  });

  it('a subclass of McpResolveError names its code and matches its own instances only', () => {
    const down = new StoreDown('redis_unavailable', 'down', { data: { operation: 'connect' } });
    expect(down instanceof StoreDown).toBe(true);
    expect(down instanceof McpResolveError).toBe(true);
    expect(down instanceof ToolError).toBe(false);
    expect(new McpResolveError('invalid_usage', 'x', { data: { api: 'once()' } }) instanceof StoreDown).toBe(false);
  });

  it('an error from another copy of the package is still a ToolError and a McpResolveError, both ways', async () => {
    const other = await copyOf<typeof ErrorsModule>('../src/errors.js');
    expect(other.ToolError).not.toBe(ToolError);
    const foreignTool = new other.ToolError('x');
    expect(foreignTool instanceof ToolError).toBe(true);
    expect(foreignTool instanceof McpResolveError).toBe(true);
    expect(new ToolError('x') instanceof other.ToolError).toBe(true);
    const foreignCoded = new other.McpResolveError('invalid_usage', 'x', { data: { api: 'once()' } });
    expect(foreignCoded instanceof McpResolveError).toBe(true);
    expect(foreignCoded instanceof ToolError).toBe(false);
    expect(foreignTool instanceof OrderNotFound).toBe(false);
    expect(new Error('x') instanceof ToolError).toBe(false);
    expect(new Error('x') instanceof McpResolveError).toBe(false);
    expect(isClientFacing(foreignTool)).toBe(true);
  });

  it('ElicitationDeclinedError keeps its brand across copies', async () => {
    const declined = new ElicitationDeclinedError('decline', 'Ship it?');
    expect(declined instanceof ElicitationDeclinedError).toBe(true);
    expect(declined instanceof ToolError).toBe(true);
    expect(declined instanceof McpResolveError).toBe(true);
    expect(new ToolError('x') instanceof ElicitationDeclinedError).toBe(false);
    const other = await copyOf<typeof SuspendingModule>('../src/mrtr/suspending.js');
    expect(other.ElicitationDeclinedError).not.toBe(ElicitationDeclinedError);
    expect(new other.ElicitationDeclinedError('cancel', 'Ship it?') instanceof ElicitationDeclinedError).toBe(true);
  });
});

describe('one root', () => {
  it("a ToolError is a McpResolveError with code 'tool_error' and no data", () => {
    const cause = new Error('row missing');
    const error = new ToolError("unknown order 'ORD-9'", { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('tool_error');
    expect(error.data).toEqual({});
    expect(error.name).toBe('ToolError');
    expect(error.message).toBe("unknown order 'ORD-9'");
    expect(error.cause).toBe(cause);
  });

  it("the brands are the library classes' own: an instance carries none, an author's subclass names none", () => {
    expect(Object.hasOwn(McpResolveError, 'brand')).toBe(true);
    expect(ToolError.brand).toBe('mcp-resolve.tool-error');
    expect(Object.hasOwn(OrderNotFound, 'brand')).toBe(false);
    const missing = new OrderNotFound('unknown order');
    expect(Object.getOwnPropertySymbols(missing)).toEqual([]);
    expect(Object.keys(missing).sort()).toEqual(['code', 'data', 'name']);
  });

  it('a McpResolveError keeps its name, code, data and cause', () => {
    const cause = new Error('ECONNREFUSED');
    const error = new McpResolveError('redis_unavailable', 'down', { data: { operation: 'replay_check' }, cause });
    expect(error.name).toBe('McpResolveError');
    expect(McpResolveError.name).toBe('McpResolveError');
    expect(error.code).toBe('redis_unavailable');
    expect(error.data).toEqual({ operation: 'replay_check' });
    expect(error.cause).toBe(cause);
  });
});

describe('typed data per code', () => {
  it('connectRedisFleet with neither url nor sentinel names the option', async () => {
    const error: unknown = await connectRedisFleet({}).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpResolveError);
    if (!(error instanceof McpResolveError) || error.code !== 'invalid_options') return expect.fail(String(error));
    expect(error.data).toEqual({ api: 'connectRedisFleet()', option: 'url' });
  });

  it('a registration error names the tool and the part at fault', () => {
    const server = new McpResolveServer({ name: 'errors', version: '1.0.0' });
    server.tool('lookup', {}, () => 'ok');
    const duplicate = thrownBy(() => server.tool('lookup', {}, () => 'again'));
    expect(duplicate.code).toBe('invalid_declaration');
    expect(duplicate.data).toEqual({ kind: 'tool', name: 'lookup' });
    // @ts-expect-error a number is not a resolver
    const notResolver = thrownBy(() => server.tool('other', { resolve: { order: 42 } }, () => 'ok'));
    expect(notResolver.data).toEqual({ kind: 'tool', name: 'other', field: 'resolve.order' });
  });

  it('a graph error names the tool, the resolver and the argument', () => {
    const order = resolver({ name: 'order', args: { order_id: z.string() } }, ({ order_id }) => order_id);
    const server = new McpResolveServer({ name: 'errors', version: '1.0.0' });
    // @ts-expect-error the tool has no input 'order_id' (caught at compile time too)
    const error = thrownBy(() => server.tool('ship', { resolve: { order } }, () => 'ok'));
    expect(error.code).toBe('invalid_graph');
    expect(error.data).toEqual({ kind: 'tool', name: 'ship', resolver: 'order', argument: 'order_id' });
  });

  it('a bad sealing key names its source and position', () => {
    const error = thrownBy(() => createSealer('errors', { keys: ['00'.repeat(32), 'short'] }));
    expect(error.code).toBe('invalid_keys');
    expect(error.data).toEqual({ source: 'options.keys', index: 1 });
  });

  it('narrowing by code types data (compile time)', () => {
    const narrow = (error: unknown): void => {
      if (!(error instanceof McpResolveError)) return;
      expectTypeOf(error.code).toEqualTypeOf<McpResolveErrorCode>();
      if (error.code === 'invalid_options') {
        expectTypeOf(error.data).toEqualTypeOf<McpResolveErrorData['invalid_options']>();
        expectTypeOf(error.data.option).toEqualTypeOf<string>();
      }
      if (error.code === 'redis_unavailable') {
        expectTypeOf(error.data.operation).toEqualTypeOf<
          'connect' | 'claim_epoch' | 'replay_check' | 'task_store' | 'answer_page' | 'attempt_count'
        >();
      }
      if (error instanceof ToolError) expectTypeOf(error.data).toEqualTypeOf<Readonly<Record<string, never>>>();
    };
    narrow(new ToolError('x'));
    expectTypeOf<keyof McpResolveErrorData>().toEqualTypeOf<McpResolveErrorCode>();
    expectTypeOf(new McpResolveError('invalid_graph', 'x', { data: { kind: 'tool', name: 't', resolver: 'r' } }))
      .toHaveProperty('data')
      .toEqualTypeOf<McpResolveErrorData['invalid_graph']>();
    // @ts-expect-error a code whose data has a required field needs options with its data
    expect(() => new McpResolveError('invalid_options', 'x')).not.toThrow();
    // @ts-expect-error the data must match the code
    expect(() => new McpResolveError('invalid_usage', 'x', { data: { option: 'x' } })).not.toThrow();
  });
});
