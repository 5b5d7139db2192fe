/**
 * What a client's answer can make the server hold: what is kept of an answer (sealed into the next
 * round's requestState, or stored on a task) is reduced to its question's schema; an answer larger
 * than maxAnswerBytes is refused on every era; a task keeps only the client capabilities the
 * library reads.
 */
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { McpResolveServerOptions } from 'mcp-resolve';
import { elicit, McpResolveError, resolver } from 'mcp-resolve';
import type { TaskRecord, TaskStore } from 'mcp-resolve/contracts';
import { createMemoryTaskStore, TASKS_EXTENSION } from 'mcp-resolve/contracts';
import { taskOf, updateTask } from 'mcp-resolve/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { accept, asked, call, completed, connect, connectManual, newServer, textOf } from '../resolvers/helpers.js';
import { connectTasks, TASK_CLIENT, until } from '../tasks/helpers.js';

const Name = z.object({ name: z.string() });
const MB = 'x'.repeat(1_000_000);

/** Two questions in a row: the first answer is sealed into the token that asks the second. */
function twoQuestions(options?: McpResolveServerOptions) {
  const first = resolver({ name: 'first' }, () => elicit('First name?', Name));
  const second = resolver({ name: 'second', deps: { a: first } }, ({ a }) => elicit(`Second, after ${a.name}?`, Name));
  return newServer(options).tool('pair', { resolve: { a: first, b: second } }, ({ a, b }) => `${a.name}+${b.name}`);
}

describe('answers are reduced to their question’s schema before sealing (2026-07-28)', () => {
  it('a 1 MB field outside the schema does not reach the next requestState', async () => {
    const manual = await connectManual(twoQuestions({ maxAnswerBytes: 4_000_000 }));
    const r1 = asked(await manual.round('pair', {}));
    const plain = asked(
      await manual.round(
        'pair',
        {},
        { requestState: r1.requestState, inputResponses: { first: accept({ name: 'Ada' }) } },
      ),
    );
    const r1b = asked(await manual.round('pair', {}));
    const padded = asked(
      await manual.round(
        'pair',
        {},
        {
          requestState: r1b.requestState,
          inputResponses: { first: { action: 'accept', content: { name: 'Ada', junk: MB }, junk: MB } },
        },
      ),
    );
    const plainLength = plain.requestState?.length ?? 0;
    const paddedLength = padded.requestState?.length ?? 0;
    expect(paddedLength).toBe(plainLength);
    expect(paddedLength).toBeLessThan(1_000);
    // The recorded answer still reads as the person's answer.
    const done = completed(
      await manual.round(
        'pair',
        {},
        { requestState: padded.requestState, inputResponses: { second: accept({ name: 'Bo' }) } },
      ),
    );
    expect(textOf(done)).toBe('Ada+Bo');
  });

  it('inputResponses under keys this call never asked are not kept', async () => {
    const manual = await connectManual(twoQuestions());
    const r1 = asked(await manual.round('pair', {}));
    const extra = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`k${i}`, accept({ name: 'x'.repeat(1_000) })]),
    );
    const r2 = asked(
      await manual.round(
        'pair',
        {},
        { requestState: r1.requestState, inputResponses: { ...extra, first: accept({ name: 'Ada' }) } },
      ),
    );
    expect(r2.requestState?.length ?? 0).toBeLessThan(1_000);
  });
});

describe('maxAnswerBytes', () => {
  it('modern: an answer over 64 KiB fails the call, naming the size and the option', async () => {
    const manual = await connectManual(twoQuestions());
    const r1 = asked(await manual.round('pair', {}));
    const result = completed(
      await manual.round(
        'pair',
        {},
        { requestState: r1.requestState, inputResponses: { first: accept({ name: MB }) } },
      ),
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Resolver 'first': the answer is too large (got 1000041 bytes; this server takes at most 65536, its maxAnswerBytes option). Send a shorter answer.",
    );
  });

  it('modern: an answer nested too deep to measure fails the call as too large', async () => {
    const manual = await connectManual(twoQuestions());
    const r1 = asked(await manual.round('pair', {}));
    let deep: unknown = 'x';
    for (let depth = 0; depth < 200_000; depth++) deep = [deep];
    const result = completed(
      await manual.round(
        'pair',
        {},
        { requestState: r1.requestState, inputResponses: { first: accept({ name: deep as string }) } },
      ),
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Resolver 'first': the answer is too large (nested too deep to measure; this server takes at most 65536, its maxAnswerBytes option). Send a shorter answer.",
    );
  });

  it('legacy: a pushed question’s answer over the limit fails the call the same way', async () => {
    const connection = await connect(twoQuestions({ maxAnswerBytes: 1_000 }), {
      era: 'legacy',
      elicit: () => ({ action: 'accept', content: { name: 'y'.repeat(2_000) } }),
    });
    const result = await call(connection, 'pair');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Resolver 'first': the answer is too large (got 2041 bytes; this server takes at most 1000, its maxAnswerBytes option). Send a shorter answer.",
    );
  });

  it.each([0, -1, 1.5, Number.NaN])(
    'refuses maxAnswerBytes %s at construction, naming the option',
    (maxAnswerBytes) => {
      expect(() => twoQuestions({ maxAnswerBytes })).toThrow(McpResolveError);
      expect(() => twoQuestions({ maxAnswerBytes })).toThrow(
        `maxAnswerBytes must be a positive integer number of bytes (got ${String(maxAnswerBytes)}).`,
      );
    },
  );
});

/** A task store that lets the test read what a task holds (public TaskStore interface). */
function observedStore(): { store: TaskStore; read: (taskId: string) => Promise<TaskRecord | undefined> } {
  const store = createMemoryTaskStore();
  return { store, read: (taskId) => store.get(taskId) };
}

async function startTask(client: Client, name: string): Promise<string> {
  const handle = taskOf(await client.callTool({ name, arguments: {} }));
  if (handle === undefined) throw new Error(`${name} did not create a task`);
  return handle.taskId;
}

function taskServer(store: TaskStore, options: McpResolveServerOptions = {}) {
  const who = resolver({ name: 'who' }, () => elicit('Name?', Name));
  return newServer({ ...options, tasks: { store } }).tool(
    'greet',
    { resolve: { who }, task: 'required' },
    ({ who: answer }) => `hi ${answer.name}`,
  );
}

describe('tasks', () => {
  it('keep only the client capabilities the library reads, whatever the client declared', async () => {
    const { store, read } = observedStore();
    const declared = {
      ...TASK_CLIENT,
      elicitation: { form: { padding: MB } },
      experimental: { padding: { text: MB } },
    };
    const { client } = await connectTasks(taskServer(store), 'modern', declared);
    const taskId = await startTask(client, 'greet');
    await until(client, taskId, 'input_required');
    const record = await read(taskId);
    expect(record?.call.clientCapabilities).toEqual({ elicitation: { form: {} } });
    expect(JSON.stringify(record).length).toBeLessThan(2_000);
  });

  it('keep an answer reduced to the question’s schema, and refuse one over maxAnswerBytes with -32602', async () => {
    const { store, read } = observedStore();
    const { client } = await connectTasks(taskServer(store, { maxAnswerBytes: 3_000_000 }));
    const taskId = await startTask(client, 'greet');
    const parked = await until(client, taskId, 'input_required');
    const key = Object.keys(parked.inputRequests ?? {})[0] ?? '';
    // Keep the task parked while reading what it recorded: a second question would resume it; read right after update.
    await updateTask(client, taskId, { [key]: { action: 'accept', content: { name: 'Ada', junk: MB }, junk: MB } });
    const done = await until(client, taskId, 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'hi Ada' }] });
    const record = await read(taskId);
    expect(Object.values(record?.answers ?? {}).map((answer) => answer.response)).toEqual([
      { action: 'accept', content: { name: 'Ada' } },
    ]);

    const { store: small } = observedStore();
    const limited = await connectTasks(taskServer(small, { maxAnswerBytes: 1_000 }));
    const second = await startTask(limited.client, 'greet');
    const waiting = await until(limited.client, second, 'input_required');
    const secondKey = Object.keys(waiting.inputRequests ?? {})[0] ?? '';
    const refused = await updateTask(limited.client, second, {
      [secondKey]: { action: 'accept', content: { name: 'z'.repeat(2_000) } },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused).toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        `the response under '${secondKey}' is too large (got 2041 bytes; this server takes at most 1000, its maxAnswerBytes option)`,
      ),
    });
    expect((await until(limited.client, second, 'input_required')).status).toBe('input_required');
  });
});

void TASKS_EXTENSION;
