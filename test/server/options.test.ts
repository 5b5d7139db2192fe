/** McpResolveServer options that configure the SDK underneath reach it. */
import { ProtocolError } from '@modelcontextprotocol/client';
import { inputRequired } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import { McpResolveServer } from 'mcp-resolve';
import { connectInProcess } from 'mcp-resolve/testing';

/** A hand-built two-round tool (no resolvers): on legacy the SDK's shim turns its question into a push. */
function handBuilt(options?: ConstructorParameters<typeof McpResolveServer>[1]): McpResolveServer {
  return new McpResolveServer({ name: 'options', version: '1.0.0' }, options).tool('confirm', {}, (_params, ctx) =>
    ctx.mcpReq.requestState() === undefined
      ? inputRequired({
          inputRequests: {
            go: inputRequired.elicit({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } }),
          },
          requestState: 'asked',
        })
      : `resumed from ${String(ctx.mcpReq.requestState())}`,
  );
}

describe('inputRequired option', () => {
  it("leaves the SDK's legacy shim on by default: a hand-built question reaches a legacy client as a push", async () => {
    const connection = await connectInProcess(handBuilt().createServer, {
      era: 'legacy',
      elicit: () => ({ action: 'accept', content: {} }),
    });
    const result = await connection.client.callTool({ name: 'confirm', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'resumed from asked' }]);
    expect(connection.counters.pushes).toBe(1);
    await connection.close();
  });

  it('passes legacyShim: false through, so the same return fails loudly on a legacy connection', async () => {
    const connection = await connectInProcess(handBuilt({ inputRequired: { legacyShim: false } }).createServer, {
      era: 'legacy',
      elicit: () => ({ action: 'accept', content: {} }),
    });
    const error = await connection.client
      .callTool({ name: 'confirm', arguments: {} })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toContain('no input_required vocabulary');
    expect(connection.counters.pushes).toBe(0);
    await connection.close();
  });
});

describe('tools/list', () => {
  it('lists a tool registered after an instance was created in every later instance', async () => {
    const server = new McpResolveServer({ name: 'late', version: '1.0.0' }).tool('first', {}, () => 'one');
    const early = await connectInProcess(server.createServer, { era: 'modern' });
    expect((await early.client.listTools()).tools.map((tool) => tool.name)).toEqual(['first']);
    server.tool('second', {}, () => 'two');
    const late = await connectInProcess(server.createServer, { era: 'modern' });
    expect((await late.client.listTools()).tools.map((tool) => tool.name)).toEqual(['first', 'second']);
    await Promise.all([early.close(), late.close()]);
  });
});
