/**
 * Library tools as tasks: a resolver's question parks the task in `input_required` under a key
 * the server minted, `tasks/update` answers it, and the body runs once.
 */
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { createMemoryTaskStore } from 'mcp-resolve/contracts';
import { elicit, McpResolveServer, resolver } from 'mcp-resolve';
import { cancelTask, getTask, taskOf, updateTask } from 'mcp-resolve/client';
import { connectInProcess } from 'mcp-resolve/testing';

import { onCleanup, textOf } from '../resolvers/helpers.js';
import { connectTasks, TASK_CLIENT, until } from './helpers.js';

const Approve = z.object({ approve: z.boolean() });
const Name = z.object({ name: z.string() });

function approvalServer(options: ConstructorParameters<typeof McpResolveServer>[1] = {}) {
  const counts = { asked: 0, body: 0 };
  let signal: AbortSignal | undefined;
  const approval = resolver({ name: 'approval', args: { amount: z.number() } }, ({ amount }) => {
    counts.asked++;
    return elicit(`Approve ${amount}?`, Approve);
  });
  const first = resolver({ name: 'first' }, () => elicit('First name?', Name));
  const second = resolver({ name: 'second' }, () => elicit('Second name?', Name));
  const greeting = resolver({ name: 'greeting', deps: { who: first } }, ({ who }) =>
    elicit(`Greeting for ${who.name}?`, z.object({ text: z.string() })),
  );
  const server = new McpResolveServer({ name: 'tasks', version: '1' }, options)
    .tool(
      'approve',
      { input: { amount: z.number() }, resolve: { decision: approval }, task: 'optional' },
      ({ amount, decision }) => {
        counts.body++;
        return decision.approve ? `Approved ${amount}.` : `Rejected ${amount}.`;
      },
    )
    .tool('pair', { resolve: { a: first, b: second }, task: 'required' }, ({ a, b }) => `${a.name}+${b.name}`)
    .tool('chain', { resolve: { g: greeting }, task: 'required' }, ({ g }) => g.text)
    .tool('wait', { task: 'required' }, async (_params, ctx) => {
      signal = ctx.mcpReq.signal;
      await new Promise((_done, fail) => ctx.mcpReq.signal.addEventListener('abort', () => fail(new Error('stopped'))));
      return 'never';
    });
  return { server, counts, signalOf: () => signal };
}

async function startTask(client: Client, name: string, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const handle = taskOf(result);
  if (handle === undefined) throw new Error(`${name} did not create a task: ${JSON.stringify(result)}`);
  return handle.taskId;
}

function codeOf(error: unknown): number | undefined {
  return error instanceof ProtocolError ? error.code : undefined;
}

describe('a tool declared with task', () => {
  it('parks on its question under an opaque key, resumes on tasks/update, and runs the body once', async () => {
    const { server, counts } = approvalServer();
    const { client } = await connectTasks(server);
    const taskId = await startTask(client, 'approve', { amount: 40 });
    const parked = await until(client, taskId, 'input_required');
    expect(parked.status).toBe('input_required');
    const keys = Object.keys(parked.inputRequests ?? {});
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toBe('approval');
    expect(parked.inputRequests?.[keys[0] ?? '']).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Approve 40?' },
    });
    expect(parked).not.toHaveProperty('requestState');

    await updateTask(client, taskId, { [keys[0] ?? '']: { action: 'accept', content: { approve: true } } });
    const done = await until(client, taskId, 'completed');
    expect(done.status).toBe('completed');
    expect(textOf(done.result ?? { content: [] })).toBe('Approved 40.');
    expect(counts.body).toBe(1);

    // Answers after completion are ignored: the body never runs again.
    await updateTask(client, taskId, { [keys[0] ?? '']: { action: 'accept', content: { approve: false } } });
    expect((await getTask(client, taskId)).status).toBe('completed');
    expect(counts.body).toBe(1);
  });

  it('ends a task whose body returns input_required itself with the one-rule error, unmasked', async () => {
    const server = new McpResolveServer({ name: 'tasks', version: '1' }).tool(
      'asks-itself',
      { task: 'optional' },
      () => ({ resultType: 'input_required' as const, inputRequests: {} }),
    );
    const { client } = await connectTasks(server);
    const taskId = await startTask(client, 'asks-itself');
    const done = await until(client, taskId, 'completed');
    expect(done.result?.isError).toBe(true);
    expect(textOf(done.result ?? { content: [] })).toBe(
      'Tool asks-itself returned input_required from its body while running as a task; ask through a resolver instead.',
    );
  });

  it('batches independent questions and accepts them one at a time (partial fulfilment)', async () => {
    const { server } = approvalServer();
    const { client } = await connectTasks(server);
    const taskId = await startTask(client, 'pair');
    const parked = await until(client, taskId, 'input_required');
    const [k1, k2] = Object.keys(parked.inputRequests ?? {});
    expect(k1).toBeDefined();
    expect(k2).toBeDefined();

    await updateTask(client, taskId, { [k1 ?? '']: { action: 'accept', content: { name: 'Ada' } } });
    const partial = await getTask(client, taskId);
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests ?? {})).toEqual([k2]);

    await updateTask(client, taskId, { [k2 ?? '']: { action: 'accept', content: { name: 'Bob' } } });
    const done = await until(client, taskId, 'completed');
    expect(textOf(done.result ?? { content: [] })).toBe('Ada+Bob');
  });

  it('asks a dependent question in a later round, under a new key', async () => {
    const { server } = approvalServer();
    const { client } = await connectTasks(server);
    const taskId = await startTask(client, 'chain');
    const first = await until(client, taskId, 'input_required');
    const [k1] = Object.keys(first.inputRequests ?? {});
    await updateTask(client, taskId, { [k1 ?? '']: { action: 'accept', content: { name: 'Ada' } } });
    let second = await getTask(client, taskId);
    for (
      let poll = 0;
      poll < 500 && !(second.status === 'input_required' && !(k1! in (second.inputRequests ?? {})));
      poll++
    ) {
      await new Promise((wake) => setTimeout(wake, 10));
      second = await getTask(client, taskId);
    }
    const [k2] = Object.keys(second.inputRequests ?? {});
    expect(k2).not.toBe(k1);
    expect(second.inputRequests?.[k2 ?? '']).toMatchObject({ params: { message: 'Greeting for Ada?' } });
    await updateTask(client, taskId, { [k2 ?? '']: { action: 'accept', content: { text: 'Hi Ada' } } });
    expect(textOf((await until(client, taskId, 'completed')).result ?? { content: [] })).toBe('Hi Ada');
  });
});

describe('questions before the task', () => {
  it('asks in multi-round rounds of tools/call, then creates the task on the round that answers', async () => {
    const ask = resolver({ name: 'who' }, () => elicit('Who?', Name));
    let bodies = 0;
    const server = new McpResolveServer({ name: 'compose', version: '1' }).tool(
      'hello',
      { resolve: { who: ask }, task: { support: 'required', questions: 'before-task' } },
      ({ who }) => {
        bodies++;
        return `Hello, ${who.name}!`;
      },
    );
    const { client } = await connectTasks(server);
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
    // The SDK client answers the input_required round itself, then receives the task.
    const result = await client.callTool({ name: 'hello', arguments: {} });
    const handle = taskOf(result);
    expect(handle).toBeDefined();
    const done = await until(client, handle?.taskId ?? '', 'completed');
    expect(textOf(done.result ?? { content: [] })).toBe('Hello, Ada!');
    expect(bodies).toBe(1);
  });
});

describe('bad input', () => {
  it('answers an unknown task id with -32602 on tasks/get, tasks/update and tasks/cancel', async () => {
    const { server } = approvalServer();
    const { client } = await connectTasks(server);
    for (const call of [
      () => getTask(client, 'no-such-task'),
      () => updateTask(client, 'no-such-task', {}),
      () => cancelTask(client, 'no-such-task'),
    ]) {
      const error = await call().then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(codeOf(error)).toBe(-32602);
      expect(String(error)).toContain("Task not found: 'no-such-task' does not exist or has expired");
    }
  });

  it('rejects an answer of the wrong shape without recording anything, and ignores keys that are not pending', async () => {
    const { server } = approvalServer();
    const { client } = await connectTasks(server);
    const taskId = await startTask(client, 'pair');
    const [k1, k2] = Object.keys((await until(client, taskId, 'input_required')).inputRequests ?? {});
    const error = await updateTask(client, taskId, {
      [k1 ?? '']: { action: 'accept', content: { name: 'Ada' } },
      [k2 ?? '']: { roots: [] },
    }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(codeOf(error)).toBe(-32602);
    expect(String(error)).toContain(`the response under '${k2}' is not an elicitation result`);
    expect(Object.keys((await getTask(client, taskId)).inputRequests ?? {})).toEqual([k1, k2]);

    await updateTask(client, taskId, { 'never-issued': { action: 'accept', content: { name: 'X' } } });
    expect(Object.keys((await getTask(client, taskId)).inputRequests ?? {})).toEqual([k1, k2]);
  });

  it('asks again, under a new key, when an answer does not match the question schema', async () => {
    const { server, counts } = approvalServer();
    const { client } = await connectTasks(server);
    const taskId = await startTask(client, 'approve', { amount: 5 });
    const [k1] = Object.keys((await until(client, taskId, 'input_required')).inputRequests ?? {});
    await updateTask(client, taskId, { [k1 ?? '']: { action: 'accept', content: { approve: 'yes' } } });
    let again = await getTask(client, taskId);
    for (
      let poll = 0;
      poll < 500 && (again.status !== 'input_required' || k1! in (again.inputRequests ?? {}));
      poll++
    ) {
      await new Promise((wake) => setTimeout(wake, 10));
      again = await getTask(client, taskId);
    }
    const [k2] = Object.keys(again.inputRequests ?? {});
    expect(k2).not.toBe(k1);
    expect(again.statusMessage).toContain('does not match the requested schema');
    expect(counts.body).toBe(0);
  });

  it('cancels: the status settles to cancelled, the body is signalled, and later updates change nothing', async () => {
    const { server, signalOf } = approvalServer();
    const { client } = await connectTasks(server);
    const taskId = await startTask(client, 'wait');
    for (let poll = 0; poll < 500 && signalOf() === undefined; poll++)
      await new Promise((wake) => setTimeout(wake, 10));
    await cancelTask(client, taskId);
    expect((await getTask(client, taskId)).status).toBe('cancelled');
    expect(signalOf()?.aborted).toBe(true);
    await cancelTask(client, taskId);
    await updateTask(client, taskId, { anything: { action: 'cancel' } });
    expect((await until(client, taskId, 'cancelled')).status).toBe('cancelled');
  });

  it('forgets a task once its ttlMs has passed', async () => {
    let now = Date.now();
    const { server } = approvalServer({ tasks: { store: createMemoryTaskStore({ now: () => now }), ttlMs: 60_000 } });
    const { client } = await connectTasks(server);
    const taskId = await startTask(client, 'approve', { amount: 1 });
    const parked = await until(client, taskId, 'input_required');
    expect(parked.ttlMs).toBe(60_000);
    now += 120_000;
    const error = await getTask(client, taskId).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(codeOf(error)).toBe(-32602);
  });
});

describe('ownership', () => {
  it('tells another principal that the task does not exist', async () => {
    const { server } = approvalServer({
      principal: (ctx) => {
        const envelope: Readonly<Record<string, unknown>> | undefined = ctx.mcpReq.envelope;
        const info = envelope?.['io.modelcontextprotocol/clientInfo'];
        return typeof info === 'object' && info !== null && 'name' in info ? String(info.name) : undefined;
      },
    });
    const owner = await connectInProcess(server.createServer, {
      era: 'modern',
      capabilities: TASK_CLIENT,
      clientInfo: { name: 'alice', version: '1' },
    });
    onCleanup(() => owner.close());
    const other = await connectInProcess(server.createServer, {
      era: 'modern',
      capabilities: TASK_CLIENT,
      clientInfo: { name: 'mallory', version: '1' },
    });
    onCleanup(() => other.close());
    const taskId = await startTask(owner.client, 'approve', { amount: 9 });
    const parked = await until(owner.client, taskId, 'input_required');
    const [key] = Object.keys(parked.inputRequests ?? {});
    for (const call of [
      () => getTask(other.client, taskId),
      () => updateTask(other.client, taskId, { [key ?? '']: { action: 'accept', content: { approve: true } } }),
      () => cancelTask(other.client, taskId),
    ]) {
      expect(
        codeOf(
          await call().then(
            () => undefined,
            (e: unknown) => e,
          ),
        ),
      ).toBe(-32602);
    }
    expect((await getTask(owner.client, taskId)).status).toBe('input_required');
  });
});

describe('negotiation', () => {
  it('runs an optional task tool as an ordinary call when the request does not declare the extension', async () => {
    const { server } = approvalServer();
    const { client } = await connectTasks(server, 'modern', { elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { approve: true } }));
    const result = await client.callTool({ name: 'approve', arguments: { amount: 7 } });
    expect(taskOf(result)).toBeUndefined();
    expect(textOf(result)).toBe('Approved 7.');
  });

  it('refuses a required task tool and the tasks methods with -32021 when the extension is not declared', async () => {
    const { server } = approvalServer();
    const { client } = await connectTasks(server, 'modern', { elicitation: { form: {} } });
    const call = await client.callTool({ name: 'pair', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(codeOf(call)).toBe(-32021);
    expect(String(call)).toContain("Tool 'pair' runs only as a task");
    const get = await getTask(client, 'x').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(codeOf(get)).toBe(-32021);
  });

  it('on 2025-11-25: an optional task tool asks by push and answers directly; a required one is refused', async () => {
    const { server, counts } = approvalServer();
    const { client } = await connectTasks(server, 'legacy', TASK_CLIENT);
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { approve: false } }));
    const result = await client.callTool({ name: 'approve', arguments: { amount: 3 } });
    expect(textOf(result)).toBe('Rejected 3.');
    expect(counts.body).toBe(1);
    const refused = await client.callTool({ name: 'pair', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(codeOf(refused)).toBe(-32021);
    expect(String(refused)).toContain('served on protocol 2026-07-28');
  });
});
