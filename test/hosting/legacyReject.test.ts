import { describe, expect, it } from 'vitest';

import { McpResolveError } from '../../src/errors.js';
import { createDualEraHandler } from '../../src/hosting/index.js';
import { connectHttp } from '../../src/testing/index.js';
import { serveHttp } from '../../src/node/index.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';

const initialize = (url: string) =>
  new Request(url, {
    method: 'POST',
    headers: { host: '127.0.0.1', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } },
    }),
  });

describe("createDualEraHandler({ legacy: 'reject' }) for hosts that cannot hold a session (Workers)", () => {
  it('refuses a 2025-11-25 initialize with HTTP 400 and the unsupported-version error, opening no session', async () => {
    const handler = createDualEraHandler(askNameServer, { legacy: 'reject' });
    try {
      const response = await handler.fetch(initialize('http://127.0.0.1/mcp'));
      expect(response.status).toBe(400);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32022,
          message: 'Unsupported protocol version: 2025-11-25',
          data: { supported: ['2026-07-28'], requested: '2025-11-25' },
        },
      });
    } finally {
      await handler.close();
    }
  });

  it('still serves modern clients in full', async () => {
    const served = await serveHttp(askNameServer, { legacy: 'reject' });
    try {
      const connection = await connectHttp(served.url, {
        era: 'modern',
        elicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
      });
      const result = await connection.client.callTool({ name: 'greet_mrtr', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'hello Ada (modern, one definition)' }]);
      await connection.close();
      const legacy = connectHttp(served.url, { era: 'legacy' });
      await expect(legacy).rejects.toThrow();
    } finally {
      await served.close();
    }
  });

  it('rejects an unknown legacy mode at construction', () => {
    expect(() => createDualEraHandler(askNameServer, { legacy: 'stateless' as 'reject' })).toThrow(McpResolveError);
    expect(() => createDualEraHandler(askNameServer, { legacy: 'stateless' as 'reject' })).toThrow(
      `createDualEraHandler(): legacy must be 'sessions' or 'reject' (got "stateless"). Omit it for 'sessions'.`,
    );
  });
});
