/** Issue 23 item 12: an official SDK client (not a test connection) reads a task result through `withTaskResults`. */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import { McpResolveServer } from 'mcp-resolve';
import { serveStdio } from 'mcp-resolve/node';
import { getTask, taskOf, withTaskResults } from 'mcp-resolve/client';

import { TASK_CLIENT } from '../tasks/helpers.js';

const server = new McpResolveServer({ name: 'reports', version: '1.0.0' }).tool(
  'report',
  { task: 'required' },
  () => 'done',
);

async function call(wrap: boolean): Promise<{ client: Client; result: unknown; close: () => Promise<void> }> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(server, { transport: serverEnd });
  const client = new Client(
    { name: 'app', version: '1.0.0' },
    { capabilities: TASK_CLIENT, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(wrap ? withTaskResults(clientEnd) : clientEnd);
  const result = await client.callTool({ name: 'report', arguments: {} }).catch((error: unknown) => error);
  return { client, result, close: async () => (await client.close(), await served.close()) };
}

describe('withTaskResults', () => {
  it('is what an SDK 2.4 client needs: without it a task result is refused', async () => {
    const bare = await call(false);
    expect(String(bare.result)).toContain("Unsupported result type 'task'");
    await bare.close();
  });

  it('hands the client a result whose task handle taskOf reads', async () => {
    const wrapped = await call(true);
    const handle = taskOf(wrapped.result as { _meta?: Record<string, unknown> });
    expect(handle?.taskId).toEqual(expect.any(String));
    const task = await getTask(wrapped.client, handle?.taskId ?? '');
    expect(task.taskId).toBe(handle?.taskId);
    await wrapped.close();
  });
});
