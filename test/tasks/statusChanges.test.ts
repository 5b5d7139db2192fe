/**
 * Task status changes: `tasks.onStatus` receives every status change of a task, in order, with
 * its owner and the `notifications/tasks/status` params, so a host can deliver them to that
 * owner's clients only.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import type { TaskStatusChange } from 'mcp-resolve/contracts';
import { elicit, McpResolveServer, resolver } from 'mcp-resolve';
import { serveHttp } from 'mcp-resolve/node';
import { cancelTask, taskOf, updateTask } from 'mcp-resolve/client';
import { connectHttp, connectInProcess } from 'mcp-resolve/testing';

import { onCleanup } from '../resolvers/helpers.js';
import { TASK_CLIENT, until } from './helpers.js';

const Approve = z.object({ approve: z.boolean() });

function server(onStatus: (change: TaskStatusChange) => void, onerror?: (error: Error) => void) {
  const approval = resolver({ name: 'approval', args: { amount: z.number() } }, ({ amount }) =>
    elicit(`Approve ${amount}?`, Approve),
  );
  return new McpResolveServer(
    { name: 'status', version: '1' },
    {
      tasks: { onStatus, ...(onerror !== undefined && { onerror }) },
      principal: (ctx) => {
        const envelope: Readonly<Record<string, unknown>> | undefined = ctx.mcpReq.envelope;
        const info = envelope?.['io.modelcontextprotocol/clientInfo'];
        return typeof info === 'object' && info !== null && 'name' in info ? String(info.name) : undefined;
      },
    },
  ).tool(
    'approve',
    { input: { amount: z.number() }, resolve: { decision: approval }, task: 'required' },
    ({ amount, decision }) => (decision.approve ? `Approved ${amount}.` : `Rejected ${amount}.`),
  );
}

async function connectAs(mcp: McpResolveServer, name: string, url?: URL) {
  const options = { era: 'modern', capabilities: TASK_CLIENT, clientInfo: { name, version: '1' } } as const;
  const connection =
    url === undefined ? await connectInProcess(mcp.createServer, options) : await connectHttp(url, options);
  onCleanup(() => connection.close());
  return connection.client;
}

async function parkedTask(client: Awaited<ReturnType<typeof connectAs>>, amount: number) {
  const handle = taskOf(await client.callTool({ name: 'approve', arguments: { amount } }));
  if (handle === undefined) throw new Error('approve did not create a task');
  const parked = await until(client, handle.taskId, 'input_required');
  const [key] = Object.keys(parked.inputRequests ?? {});
  return { taskId: handle.taskId, key: key ?? '' };
}

describe('tasks.onStatus', () => {
  it('receives each status change of a task in order, with its owner and the notification params', async () => {
    const changes: TaskStatusChange[] = [];
    const mcp = server((change) => changes.push(change));
    const alice = await connectAs(mcp, 'alice');
    const mallory = await connectAs(mcp, 'mallory');
    const mine = await parkedTask(alice, 40);
    const theirs = await parkedTask(mallory, 7);

    await updateTask(alice, mine.taskId, { [mine.key]: { action: 'accept', content: { approve: true } } });
    await until(alice, mine.taskId, 'completed');

    const ofMine = changes.filter((change) => change.params.taskId === mine.taskId);
    expect(ofMine.map((change) => change.params.status)).toEqual(['input_required', 'working', 'completed']);
    expect(
      ofMine.every((change) => change.principal === 'alice' && change.method === 'notifications/tasks/status'),
    ).toBe(true);
    expect(ofMine[0]?.params.inputRequests).toHaveProperty(mine.key);
    expect(ofMine[2]?.params.result).toMatchObject({ content: [{ type: 'text', text: 'Approved 40.' }] });

    const ofTheirs = changes.filter((change) => change.params.taskId === theirs.taskId);
    expect(ofTheirs.map((change) => [change.principal, change.params.status])).toEqual([['mallory', 'input_required']]);
  });

  it('over HTTP on 2026-07-28: the task changes of SDK clients reach the hook with their owner, in order', async () => {
    const changes: TaskStatusChange[] = [];
    const mcp = server((change) => changes.push(change));
    const handle = await serveHttp(mcp, { port: 0 });
    onCleanup(() => handle.close());
    const alice = await connectAs(mcp, 'alice', handle.url);
    const mallory = await connectAs(mcp, 'mallory', handle.url);
    const mine = await parkedTask(alice, 12);
    const theirs = await parkedTask(mallory, 13);
    await updateTask(alice, mine.taskId, { [mine.key]: { action: 'accept', content: { approve: false } } });
    await until(alice, mine.taskId, 'completed');
    await cancelTask(mallory, theirs.taskId);

    expect(changes.map((change) => [change.principal, change.params.taskId, change.params.status])).toEqual([
      ['alice', mine.taskId, 'input_required'],
      ['mallory', theirs.taskId, 'input_required'],
      ['alice', mine.taskId, 'working'],
      ['alice', mine.taskId, 'completed'],
      ['mallory', theirs.taskId, 'cancelled'],
    ]);
  });

  it('reports a cancellation, and a throwing onStatus goes to onerror without changing the task', async () => {
    const statuses: unknown[] = [];
    const errors: string[] = [];
    const mcp = server(
      (change) => {
        statuses.push(change.params.status);
        throw new Error('delivery failed');
      },
      (error) => errors.push(error.message),
    );
    const alice = await connectAs(mcp, 'alice');
    const { taskId } = await parkedTask(alice, 3);
    await cancelTask(alice, taskId);
    expect((await until(alice, taskId, 'cancelled')).status).toBe('cancelled');
    expect(statuses).toEqual(['input_required', 'cancelled']);
    expect(errors).toEqual(['delivery failed', 'delivery failed']);
  });
});
