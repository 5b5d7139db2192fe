/**
 * resolvers.md §13 [N1]: masked errors. `ToolError` and the library's own messages reach the client
 * verbatim; any other exception becomes a generic message with a correlation id, and its cause goes
 * to the server's error hook under the same id.
 */
import { ProtocolError } from '@modelcontextprotocol/client';
import type { FailureInfo } from 'mcp-resolve';
import { elicit, resolver, ToolError } from 'mcp-resolve';
import { createContinuationStore, suspending } from 'mcp-resolve/mrtr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { call, connect, ERAS, newServer, textOf } from '../resolvers/helpers.js';

/** The example: a driver error whose text carries a credential and an internal host. */
const leaky = () => new Error('connect failed: postgres://app:hunter2@db.internal/orders');

const MASKED = /^Internal error \(ref ([0-9a-f]{12})\): the server could not complete this request\. /;

/** A hook that records what it is handed. */
function recorder() {
  const seen: Array<{ error: unknown; info: FailureInfo }> = [];
  return { seen, onerror: (error: unknown, info: FailureInfo) => void seen.push({ error, info }) };
}

/** The correlation id a masked message carries (fails the test if the text is not the masked one). */
function refIn(text: string): string {
  const match = MASKED.exec(text);
  expect(match, text).not.toBeNull();
  return match?.[1] ?? '';
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(ERAS)('masked errors (%s)', (era) => {
  it('[N1] an Error thrown by a resolver never reaches the client; the hook sees it under the same id', async () => {
    const failure = leaky();
    const loadOrder = resolver({ name: 'loadOrder' }, () => {
      throw failure;
    });
    const hook = recorder();
    const server = newServer({ onerror: hook.onerror }).tool('refund', { resolve: { order: loadOrder } }, () => 'ran');
    const result = await call(await connect(server, { era }), 'refund');
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('db.internal');
    expect(hook.seen).toEqual([{ error: failure, info: { ref: refIn(text), method: 'tools/call', name: 'refund' } }]);
  });

  it('[N1] an Error thrown by the tool body, or a thrown non-Error, is masked the same way', async () => {
    const failure = leaky();
    const hook = recorder();
    const server = newServer({ onerror: hook.onerror })
      .tool('body', {}, () => {
        throw failure;
      })
      .tool('thrownString', {}, () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- what careless code does
        throw 'postgres://app:hunter2@db.internal';
      });
    const connection = await connect(server, { era });
    const fromBody = textOf(await call(connection, 'body'));
    const fromString = textOf(await call(connection, 'thrownString'));
    expect(hook.seen).toEqual([
      { error: failure, info: { ref: refIn(fromBody), method: 'tools/call', name: 'body' } },
      {
        error: 'postgres://app:hunter2@db.internal',
        info: { ref: refIn(fromString), method: 'tools/call', name: 'thrownString' },
      },
    ]);
    expect(refIn(fromBody)).not.toBe(refIn(fromString));
  });

  it("[N1] ToolError and the library's own messages pass verbatim and never reach the hook", async () => {
    const hook = recorder();
    const ask = resolver({ name: 'ask' }, () => elicit('Which order?', z.object({ pick: z.string() })));
    const server = newServer({ onerror: hook.onerror })
      .tool('unknown', {}, () => {
        throw new ToolError("unknown order 'ORD-9999'");
      })
      .tool('declined', { resolve: { ask } }, () => 'ran');
    const connection = await connect(server, { era, elicit: () => ({ action: 'decline' }) });
    expect(textOf(await call(connection, 'unknown'))).toBe("unknown order 'ORD-9999'");
    expect(textOf(await call(connection, 'declined'))).toBe(
      `Resolver for parameter 'ask' could not resolve: elicitation was decline. "Which order?" was declined, so the call stopped.`,
    );
    expect(hook.seen).toEqual([]);
  });

  it('[N1] exposeErrorMessages sends the raw message (development only); the hook still sees it', async () => {
    const failure = leaky();
    const hook = recorder();
    const server = newServer({ onerror: hook.onerror, exposeErrorMessages: true }).tool('t', {}, () => {
      throw failure;
    });
    const result = await call(await connect(server, { era }), 't');
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: failure.message }] });
    expect(hook.seen).toEqual([{ error: failure, info: expect.objectContaining({ method: 'tools/call', name: 't' }) }]);
  });

  it('[N1] with no hook, the cause is one line on stderr with the id; a throwing hook changes nothing', async () => {
    const lines: unknown[][] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args));
    const failing = () => {
      throw leaky();
    };
    const byDefault = newServer().tool('t', {}, failing);
    const text = textOf(await call(await connect(byDefault, { era }), 't'));
    expect(lines).toEqual([
      [
        `mcp-resolve: tools/call 't' failed [ref ${refIn(text)}]: Error: connect failed: postgres://app:hunter2@db.internal/orders`,
      ],
    ]);
    const broken = newServer({
      onerror: () => {
        throw new Error('log sink full');
      },
    }).tool('t', {}, failing);
    expect(textOf(await call(await connect(broken, { era }), 't'))).toMatch(MASKED);
  });

  it('[N1] a prompt or resource read that throws is a -32603 error with the masked message', async () => {
    const hook = recorder();
    const failing = resolver({ name: 'failing' }, () => {
      throw leaky();
    });
    const server = newServer({ onerror: hook.onerror })
      .prompt('brief', { resolve: { v: failing } }, () => ({ messages: [] }))
      .prompt('known', {}, () => {
        throw new ToolError('no brief for this order');
      })
      .resource('notes', 'test://notes', { mimeType: 'text/plain' }, () => {
        throw leaky();
      });
    const connection = await connect(server, { era });
    const outcomes = [
      await connection.client.getPrompt({ name: 'brief' }).catch((error: unknown) => error),
      await connection.client.readResource({ uri: 'test://notes' }).catch((error: unknown) => error),
    ];
    for (const outcome of outcomes) {
      expect(outcome).toBeInstanceOf(ProtocolError);
      expect(outcome).toMatchObject({ code: -32603, message: MASKED });
    }
    const refs = outcomes.map((outcome) => refIn(outcome instanceof Error ? outcome.message : ''));
    expect(hook.seen.map(({ info }) => info)).toEqual([
      { ref: refs[0], method: 'prompts/get', name: 'brief' },
      { ref: refs[1], method: 'resources/read', name: 'test://notes' },
    ]);
    await expect(connection.client.getPrompt({ name: 'known' })).rejects.toMatchObject({
      code: -32603,
      message: 'no brief for this order',
    });
  });
});

describe('library errors thrown at handlers', () => {
  it('[N1] an uncaught ElicitationDeclinedError (a ToolError) reaches the client verbatim', async () => {
    const hook = recorder();
    const input = { location: z.string() };
    const server = newServer({ onerror: hook.onerror }).tool(
      'weather',
      { input },
      suspending(async (_args, ctx) => (await ctx.elicit('Units?', z.object({ units: z.string() }))).units, {
        store: createContinuationStore(),
      }),
    );
    const result = await call(await connect(server, { era: 'legacy' }), 'weather', { location: 'Oslo' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "The question 'Units?' cannot be asked on this legacy (2025-11-25) session: suspending handlers suspend only on modern rounds.",
    );
    expect(hook.seen).toEqual([]);
  });
});
