/** Issue 23 item 7: `serveStdio` from `mcp-resolve/node` works without `@modelcontextprotocol/node` installed. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { connectStdio } from 'mcp-resolve/testing';

const BLOCKER = fileURLToPath(new URL('./fixtures/withoutNodeAdapter.ts', import.meta.url));
const SERVER = fileURLToPath(new URL('./fixtures/stdioOnly.ts', import.meta.url));
const ARGS = ['--import', 'tsx', '--import', BLOCKER, SERVER];

describe('mcp-resolve/node without @modelcontextprotocol/node', () => {
  it.each(['modern', 'legacy'] as const)('serves stdio on %s', async (era) => {
    const connection = await connectStdio(process.execPath, ARGS, { era, stderr: 'inherit', timeoutMs: 100_000 });
    try {
      const result = await connection.client.callTool({ name: 'ping', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'pong' }]);
    } finally {
      await connection.close();
    }
  });

  it('refuses serveHttp with the install line', async () => {
    const failed = await promisify(execFile)(process.execPath, [...ARGS, '--http']).catch(
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failed).toMatchObject({ code: 3 });
    expect((failed as { stderr: string }).stderr).toContain(
      'McpResolveError: serveHttp() needs the peer dependency @modelcontextprotocol/node: npm install @modelcontextprotocol/node',
    );
  });
});
