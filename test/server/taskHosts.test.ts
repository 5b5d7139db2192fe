/**
 * The server runs its tools declared with `task` through whatever `TaskHost` the entry provides:
 * it knows the interface only (src/server/taskHosts.ts), and the package entry provides the task
 * runner (src/mcpResolveServer.ts).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';

import type { TaskHost } from '../../src/round/taskHost.js';
import { McpResolveServer } from '../../src/server/server.js';
import type { TaskHostFactory } from '../../src/server/taskHosts.js';
import { provideTaskHosts } from '../../src/server/taskHosts.js';
import { TaskRunner } from '../../src/tasks/runner.js';
import { call, connect, INFO, textOf } from '../resolvers/helpers.js';

/** Puts back the factory a test replaced (unit test files share one module registry). */
let restore: TaskHostFactory | undefined;
afterEach(() => {
  provideTaskHosts(restore);
});

describe('the task host a server runs its task tools with', () => {
  it('comes from the provided factory: any TaskHost plugs in', async () => {
    const seen: string[] = [];
    const fake: TaskHost = {
      extension: 'example.com/tasks',
      call: async (tool): Promise<CallToolResult> => {
        seen.push(`call ${tool.name}`);
        return { content: [{ type: 'text', text: 'from the fake host' }] };
      },
      serve: () => {
        seen.push('serve');
      },
    };
    restore = provideTaskHosts((tools, options) => {
      seen.push(`built for ${[...tools.keys()].join(',')} with ttl ${String(options?.ttlMs)}`);
      return fake;
    });
    const server = new McpResolveServer(INFO, { tasks: { ttlMs: 5000 } })
      .tool('plain', {}, () => 'plain')
      .tool('long', { task: 'optional' }, () => 'ran by the server')
      .tool('longer', { task: 'required' }, () => 'ran by the server');
    const connection = await connect(server, { era: 'modern' });
    expect(textOf(await call(connection, 'long'))).toBe('from the fake host');
    expect(textOf(await call(connection, 'plain'))).toBe('plain');
    expect(seen).toEqual(['built for plain,long with ttl 5000', 'serve', 'call long']);
  });

  it('is the task runner of tasks/ once the package entry is loaded', async () => {
    const entry = await import('../../src/mcpResolveServer.js');
    expect(entry.McpResolveServer).toBe(McpResolveServer);
    restore = provideTaskHosts(undefined);
    expect(restore?.(new Map(), undefined)).toBeInstanceOf(TaskRunner);
  });

  it('is refused at registration when no factory is provided (never through the package entry)', () => {
    restore = provideTaskHosts(undefined);
    const server = new McpResolveServer(INFO);
    expect(() => server.tool('long', { task: 'optional' }, () => 'x')).toThrow(
      "Tool 'long' declares task, but no task host is provided: import McpResolveServer from 'mcp-resolve'.",
    );
  });
});
