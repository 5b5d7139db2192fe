/** Issue 23 item 4: HTTP hosting on a per-process key warns at start; an unknown key's refusal names the variable. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { McpResolveServer } from 'mcp-resolve';
import { REQUEST_STATE_KEYS_ENV } from 'mcp-resolve/contracts';
import { serveHttp } from 'mcp-resolve/node';

import { createSealer } from '../../src/state/sealer.js';
import { BINDING } from '../state/helpers.js';

const KEY_A = 'a'.repeat(64);
const KEY_B = 'b'.repeat(64);
const saved = process.env[REQUEST_STATE_KEYS_ENV];

beforeEach(() => {
  delete process.env[REQUEST_STATE_KEYS_ENV];
});
afterEach(() => {
  if (saved !== undefined) process.env[REQUEST_STATE_KEYS_ENV] = saved;
});

function server(lines: string[], keys?: string[]): McpResolveServer {
  return new McpResolveServer(
    { name: 'rooms', version: '1.0.0' },
    {
      ...(keys !== undefined && { requestState: { keys } }),
      onerror: (error, { method, name }) => void lines.push(`${method} ${name}: ${(error as Error).message}`),
    },
  ).tool('ping', {}, () => 'pong');
}

describe('serveHttp sealing keys', () => {
  it('warns once at start, naming MCP_REQUEST_STATE_KEYS, when no keys are shared', async () => {
    const lines: string[] = [];
    const rooms = server(lines);
    const first = await serveHttp(rooms, { port: 0 });
    const second = await serveHttp(rooms, { port: 0 });
    expect(lines).toEqual([
      "requestState requestState: mcp-resolve: serveHttp() seals requestState with a random per-process key: a question's answers are lost " +
        `after a restart or on a second instance. To keep them, set the same ${REQUEST_STATE_KEYS_ENV} ` +
        '(or requestState.keys) on every instance and keep it across restarts: comma-separated keys of 32 bytes or ' +
        'more, hex or base64 (the first seals, all open). ' +
        "Generate a key with: node -e \"console.log(require('crypto').randomBytes(32).toString('hex'))\"",
    ]);
    await Promise.all([first.close(), second.close()]);
  });

  it.each<[string, string[] | undefined, string | undefined]>([
    ['explicit keys', [KEY_A], undefined],
    [REQUEST_STATE_KEYS_ENV, undefined, KEY_A],
  ])('stays silent with %s', async (_label, keys, env) => {
    if (env !== undefined) process.env[REQUEST_STATE_KEYS_ENV] = env;
    const lines: string[] = [];
    const handle = await serveHttp(server(lines, keys), { port: 0 });
    expect(lines).toEqual([]);
    await handle.close();
  });

  it('names MCP_REQUEST_STATE_KEYS when a token was sealed with a key this process lacks', async () => {
    const lines: string[] = [];
    const before = createSealer('rooms', { keys: [KEY_A] });
    const after = createSealer('rooms', { keys: [KEY_B], sink: (line) => lines.push(line) });
    const token = await before.seal(new Uint8Array([1]), BINDING);
    await expect(after.open(token, BINDING)).rejects.toThrow('Invalid or expired requestState');
    expect(lines).toEqual([
      'requestState rejected on tools/call: unknown_key (sealed with a key this process does not have: ' +
        `set the same ${REQUEST_STATE_KEYS_ENV} (or requestState.keys) on every instance and keep it across restarts)`,
    ]);
  });
});
