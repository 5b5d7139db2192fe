/**
 * The `oauth` option runs on workerd: the fetch handler in a real Worker serves the protected
 * resource metadata, answers 401 without a token, and serves a modern client whose token
 * oidc-provider issued, fetching the issuer's metadata and keys from inside the Worker.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort, stopChild } from '../../scripts/lib/processes.js';
import { bundleWorker, startWorkerd } from '../../scripts/lib/workerd.js';
import { MODERN_PROTOCOL_VERSION } from '../../src/testing/connection.js';
import { useAuthorizationServer } from '../fixtures/authorizationServer.js';

const issuerOf = useAuthorizationServer();
let dir: string | undefined;
let child: ChildProcess | undefined;
let endpoint: URL;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-resolve-oauth-worker-'));
  await bundleWorker(fileURLToPath(new URL('../fixtures/oauthWorker.ts', import.meta.url)), join(dir, 'desk.js'));
  const port = await freePort();
  // The Worker's outbound fetches may reach loopback (workerd's default network is public addresses only).
  await writeFile(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "desk", worker = .desk), (name = "loopback", network = (allow = ["public", "private", "local"])) ],
  sockets = [ (name = "desk", address = "127.0.0.1:${port}", http = (), service = "desk") ],
);
const desk :Workerd.Worker = (
  modules = [ (name = "desk.js", esModule = embed "desk.js") ],
  compatibilityDate = "2025-09-01",
  bindings = [ (name = "ISSUER", text = "${issuerOf.current().issuer}") ],
  globalOutbound = "loopback",
);
`,
  );
  endpoint = new URL(`http://127.0.0.1:${port}/mcp`);
  ({ child } = await startWorkerd(join(dir, 'config.capnp'), [endpoint], { onSpawn: (spawned) => (child = spawned) }));
});
afterAll(async () => {
  if (child !== undefined) await stopChild(child);
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('oauth on workerd', () => {
  it('serves the metadata and refuses a request without a token with the challenge', async () => {
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', endpoint));
    expect(await metadata.json()).toMatchObject({
      resource: endpoint.href,
      authorization_servers: [issuerOf.current().issuer],
    });
    const refused = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('serves a client whose token the provider issued for the Worker', async () => {
    const token = await issuerOf.current().clientCredentialsToken({ resource: endpoint.href, scope: 'mcp' });
    const client = new Client(
      { name: 'oauth-worker-test', version: '0.0.0' },
      { versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['refund_order']);
    } finally {
      await client.close();
    }
  });
});
