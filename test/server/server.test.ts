/**
 * `McpResolveServer` imported from its own module, not through the package entry, runs its tools
 * declared with `task`: the server builds its task host itself (no side-effect import provides it).
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';

import { taskOf } from 'mcp-resolve/client';

import { textOf } from '../resolvers/helpers.js';
import { connectTasks, until } from '../tasks/helpers.js';

describe('McpResolveServer from its own module', () => {
  it('runs a tool declared with task to its result', async () => {
    // A fresh module registry: nothing the helpers imported (the package entry) has run for this import.
    vi.resetModules();
    const { McpResolveServer } = await import('../../src/server/server.js');
    const server = new McpResolveServer({ name: 'tasks', version: '1' }).tool(
      'long',
      { task: 'required' },
      () => 'ran as a task',
    );
    const { client } = await connectTasks(server);
    const created = await client.callTool({ name: 'long', arguments: {} });
    const done = await until(client, taskOf(created)?.taskId ?? 'no task created', 'completed');
    expect(done.status).toBe('completed');
    expect(textOf(done.result ?? ({ content: [] } satisfies CallToolResult))).toBe('ran as a task');
  });
});
