/** The refund desk as a fleet member: `--redis` to a Redis that is not there fails at start, naming the URL. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { freePort } from '../../scripts/lib/processes.js';

const SERVER = fileURLToPath(new URL('../../examples/stories/refund-desk/server.ts', import.meta.url));

describe('refund desk --redis', () => {
  it('exits 1 with a message naming the URL when Redis is unreachable', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const child = spawn(process.execPath, ['--import', 'tsx', SERVER, '--http', '--port', '0', '--redis', url], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stderr).toContain(`refund-desk: Cannot connect to Redis at ${url}`);
    expect(stderr).toContain('Start redis-server or fix the URL (--redis / REDIS_URL).');
  });
});
