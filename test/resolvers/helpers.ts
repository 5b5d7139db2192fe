/** Shared helpers for the resolver contract tests: connect a client to a server on an era, read results. */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { McpResolveServer } from 'mcp-resolve';
import type { ConnectOptions, Era, TestConnection } from 'mcp-resolve/testing';
import { connectInProcess } from 'mcp-resolve/testing';
import { afterEach } from 'vitest';

/** Both eras, for `describe.each`. */
export const ERAS: readonly Era[] = ['modern', 'legacy'];

const open: TestConnection[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

/** Connects a client to `server` in-process; closed automatically after the test. */
export async function connect(server: McpResolveServer, options: ConnectOptions): Promise<TestConnection> {
  const connection = await connectInProcess(server.createServer, options);
  open.push(connection);
  return connection;
}

/** The text of a tool result's content blocks. */
export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/** Calls `name` and returns the (final) result, typed as a plain tool result. */
export async function call(
  connection: TestConnection,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return await connection.client.callTool({ name, arguments: args });
}
