/**
 * Hostile stdin against a real stdio server process: lines that are not JSON-RPC messages cost one
 * stderr line each and the server keeps serving; a line over the message limit closes the
 * connection with a clear stderr line and a non-zero exit code (not the silent exit 0 it was).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import { McpResolveError } from '../../src/errors.js';
import { serveFactoryStdio } from '../../src/node/stdio.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';

const SERVER = fileURLToPath(new URL('./fixtures/stdioServer.ts', import.meta.url));

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

interface Exited {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderrLines: string[];
}

/**
 * Runs the fixture server, writes `input` to its stdin, and closes stdin once stdout shows
 * `closeAfter` (or at once); resolves when the process exits. Killed if it outlives 20 s.
 */
function run(input: string, options: { limit?: number; closeAfter?: string } = {}): Promise<Exited> {
  const args = ['--import', 'tsx', SERVER, ...(options.limit === undefined ? [] : [String(options.limit)])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (options.closeAfter !== undefined && stdout.includes(options.closeAfter)) child.stdin.end();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => {}); // the server may close its end first (that is the point)
  child.stdin.write(input);
  if (options.closeAfter === undefined) child.stdin.end();
  const killer = setTimeout(() => child.kill('SIGKILL'), 100_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderrLines: stderr.split('\n').filter((line) => line !== '') });
    });
  });
}

describe('serveStdio against hostile input', () => {
  it('reports each line that is not a JSON-RPC message in one line, and keeps serving', async () => {
    const garbage = ['{"hello":1}', '[1,2]', '"x"'].join('\n');
    const exited = await run(`${garbage}\n${INITIALIZE}\n`, { closeAfter: '"id":1' });
    expect(exited.stderrLines).toEqual([
      'mcp-resolve: stdio: ignored an inbound line that is not a JSON-RPC message (Invalid input: expected "2.0" at jsonrpc)',
      'mcp-resolve: stdio: ignored an inbound line that is not a JSON-RPC message (Invalid input: expected object, received array)',
      'mcp-resolve: stdio: ignored an inbound line that is not a JSON-RPC message (Invalid input: expected object, received string)',
    ]);
    expect(JSON.parse(exited.stdout.trim())).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
    expect(exited.code).toBe(0);
  });

  it('closes on a line over the default 10 MiB limit with a clear line and exit code 1', async () => {
    const exited = await run(`{"pad":"${'x'.repeat(10 * 1024 * 1024)}"}\n`);
    expect(exited.stderrLines).toEqual([
      'mcp-resolve: stdio: an inbound message exceeded maxMessageBytes (10485760 bytes); the connection is closed.',
    ]);
    expect(exited.code).toBe(1);
  });

  it('takes the limit from maxMessageBytes: a message under it is served, one over it closes', async () => {
    const served = await run(`${INITIALIZE}\n`, { limit: 1024, closeAfter: '"id":1' });
    expect(served.stderrLines).toEqual([]);
    expect(served.code).toBe(0);
    const closed = await run(`${INITIALIZE.replace('"raw"', `"${'r'.repeat(2048)}"`)}\n`, { limit: 1024 });
    expect(closed.stderrLines).toEqual([
      'mcp-resolve: stdio: an inbound message exceeded maxMessageBytes (1024 bytes); the connection is closed.',
    ]);
    expect(closed.stdout).toBe('');
    expect(closed.code).toBe(1);
  });

  it.each<[string, Parameters<typeof serveFactoryStdio>[1], RegExp]>([
    ['a limit that is not a positive integer', { maxMessageBytes: 0 }, /maxMessageBytes must be a positive integer/],
    [
      'a limit next to a transport of your own',
      { maxMessageBytes: 1024, transport: InMemoryTransport.createLinkedPair()[1] },
      /applies to the default stdio transport only/,
    ],
  ])('refuses %s', (_case, options, message) => {
    expect(() => serveFactoryStdio(askNameServer, options)).toThrow(McpResolveError);
    expect(() => serveFactoryStdio(askNameServer, options)).toThrow(message);
  });
});
