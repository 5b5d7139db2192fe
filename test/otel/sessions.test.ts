/**
 * `mcp_resolve.legacy.sessions.open` follows the legacy session table of the HTTP hosting: up when a
 * 2025-11-25 client's `initialize` opens a session, down when the session is closed (DELETE, or the
 * server closing); modern (2026-07-28) traffic has no sessions and does not move it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { McpResolveServer } from '../../src/index.js';
import { serveHttp } from '../../src/node/index.js';
import { connectHttp } from '../../src/testing/index.js';
import { counterSum, recording } from './helpers.js';

const OPEN = 'mcp_resolve.legacy.sessions.open';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

describe('open legacy sessions', () => {
  it('counts the sessions the hosting holds, over real HTTP', async () => {
    const recorded = recording();
    cleanups.push(() => recorded.shutdown());
    const server = new McpResolveServer({ name: 'sessions', version: '1' }, { telemetry: recorded.telemetry }).tool(
      'ping_me',
      { input: { n: z.number() } },
      ({ n }) => `pong ${n}`,
    );
    const handle = await serveHttp(server, { port: 0 });
    let closed = false;
    cleanups.push(async () => {
      if (!closed) await handle.close();
    });
    const open = async (): Promise<number> => counterSum(await recorded.metrics(), OPEN);

    const first = await connectHttp(handle.url, { era: 'legacy' });
    const second = await connectHttp(handle.url, { era: 'legacy' });
    const modern = await connectHttp(handle.url, { era: 'modern' });
    await first.client.callTool({ name: 'ping_me', arguments: { n: 1 } });
    await modern.client.callTool({ name: 'ping_me', arguments: { n: 2 } });
    expect(await open()).toBe(2);

    await first.close();
    expect(await open()).toBe(1);
    await modern.close();
    expect(await open()).toBe(1);

    await handle.close();
    closed = true;
    expect(await open()).toBe(0);
    await second.close().catch(() => undefined);
  });
});
