import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { serveHttp } from '../../src/node/index.js';
import { connectHttp } from '../../src/testing/index.js';
import { answers } from '../testing/scripted.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';
import { SseReader, openLegacySession, post, send } from '../../scripts/lib/wire.js';

const SERVE_AND_CLOSE = fileURLToPath(new URL('./fixtures/serveAndClose.ts', import.meta.url));

/** Resources that keep the event loop alive, by type (unref'd timers are not counted by Node). */
function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

describe('closing', () => {
  it('leaves no open handles behind in this process', async () => {
    const before = activeResources();
    const served = await serveHttp(askNameServer);
    const legacy = await connectHttp(served.url, { era: 'legacy', elicit: answers.elicit });
    const modern = await connectHttp(served.url, { era: 'modern', elicit: answers.elicit });
    await legacy.client.callTool({ name: 'greet', arguments: {} }, { timeout: 60_000 });
    await modern.client.callTool({ name: 'greet', arguments: {} }, { timeout: 60_000 });
    await Promise.all([legacy.close(), modern.close()]);
    await served.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = activeResources();
    const grown = Object.keys(after).filter((type) => (after[type] ?? 0) > (before[type] ?? 0));
    expect(grown).toEqual([]);
  });

  it('ends open streams and refuses new requests once closed', async () => {
    const served = await serveHttp(askNameServer);
    const sessionId = await openLegacySession({ url: served.url });
    const standalone = new SseReader(await send({ url: served.url, sessionId }, { method: 'GET' }));
    await served.close();
    expect(await standalone.ends()).toBe(true);
    await expect(post({ url: served.url }, { jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow();
    await served.close(); // idempotent
  });

  it('lets the process exit on its own', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', SERVE_AND_CLOSE], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    try {
      expect(await exit).toBe(0);
      expect(stdout).toBe('closed\n');
    } finally {
      clearTimeout(timer);
    }
  });
});
