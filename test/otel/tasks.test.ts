/**
 * Task status changes are counted by status and recorded as child spans of the call that created
 * the task (one trace for a task's life), and the author's own `tasks.onStatus` still receives each one.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import type { TaskStatusChange } from 'mcp-resolve/contracts';
import { elicit, McpResolveServer, resolver } from 'mcp-resolve';
import { connectInProcess } from 'mcp-resolve/testing';
import { taskOf, updateTask } from 'mcp-resolve/client';

import { onCleanup } from '../resolvers/helpers.js';
import { TASK_CLIENT, until } from '../tasks/helpers.js';
import { counterSum, recording, serverSpans } from './helpers.js';

describe('task status metrics', () => {
  it('counts each status change, records it under the creating call, and keeps the author hook', async () => {
    const recorded = recording();
    onCleanup(() => recorded.shutdown());
    const seen: TaskStatusChange[] = [];
    const approval = resolver({ name: 'approval', args: { amount: z.number() } }, ({ amount }) =>
      elicit(`Approve ${amount}?`, z.object({ approve: z.boolean() })),
    );
    const mcp = new McpResolveServer(
      { name: 'tasks-otel', version: '1' },
      { telemetry: recorded.telemetry, tasks: { onStatus: (change) => seen.push(change) } },
    ).tool(
      'approve',
      { input: { amount: z.number() }, resolve: { decision: approval }, task: 'required' },
      ({ decision }) => (decision.approve ? 'yes' : 'no'),
    );
    const connection = await connectInProcess(mcp.createServer, { era: 'modern', capabilities: TASK_CLIENT });
    onCleanup(() => connection.close());
    const handle = taskOf(await connection.client.callTool({ name: 'approve', arguments: { amount: 5 } }));
    if (handle === undefined) throw new Error('approve did not create a task');
    const parked = await until(connection.client, handle.taskId, 'input_required');
    const [key = ''] = Object.keys(parked.inputRequests ?? {});
    await updateTask(connection.client, handle.taskId, { [key]: { action: 'accept', content: { approve: true } } });
    await until(connection.client, handle.taskId, 'completed');

    expect(seen.map((change) => change.params.status)).toEqual(['input_required', 'working', 'completed']);
    const metrics = await recorded.metrics();
    for (const status of ['input_required', 'working', 'completed'])
      expect(counterSum(metrics, 'mcp_resolve.task.status_changes', { 'mcp_resolve.task.status': status })).toBe(1);

    const spans = recorded.spans();
    const [created] = serverSpans(spans).filter((span) => span.name === 'tools/call approve');
    expect(created?.attributes['mcp_resolve.round.outcome']).toBe('task');
    const changes = spans.filter((span) => span.name.startsWith('task '));
    expect(changes.map((span) => [span.name, span.attributes['mcp_resolve.task.status']])).toEqual([
      ['task input_required', 'input_required'],
      ['task working', 'working'],
      ['task completed', 'completed'],
    ]);
    for (const change of changes) {
      expect(change.spanContext().traceId).toBe(created?.spanContext().traceId);
      expect(change.parentSpanContext?.spanId).toBe(created?.spanContext().spanId);
    }
    // The extension's methods get SERVER spans of their own.
    const methods = new Set(serverSpans(spans).map((span) => span.attributes['mcp.method.name']));
    expect([...methods].filter((method) => String(method).startsWith('tasks/')).sort()).toEqual([
      'tasks/get',
      'tasks/update',
    ]);
    // A created task is not a completed call: calls are counted when they end.
    expect(counterSum(metrics, 'mcp_resolve.calls', { 'gen_ai.tool.name': 'approve' })).toBe(0);
  });
});
