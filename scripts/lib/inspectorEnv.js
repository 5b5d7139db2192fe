/**
 * The environment the MCP Inspector's web UI is started with, for both Inspector runs
 * (scripts/lib/inspector.ts and scripts/inspector-check.js, which runs under plain `node` and so
 * cannot import TypeScript): free loopback ports, no browser opened, secrets in memory, and its
 * storage and HOME inside `dir`.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import process from 'node:process';

/** A TCP port free on 127.0.0.1 just now. */
export function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** This process's environment with the Inspector's settings for a run kept in `dir`. */
export async function inspectorEnv(dir) {
  return {
    ...process.env,
    CLIENT_PORT: String(await freePort()),
    MCP_SANDBOX_PORT: String(await freePort()),
    MCP_AUTO_OPEN_ENABLED: 'false',
    MCP_INSPECTOR_SECRET_STORE: 'memory',
    MCP_STORAGE_DIR: join(dir, 'storage'),
    HOME: dir,
  };
}
