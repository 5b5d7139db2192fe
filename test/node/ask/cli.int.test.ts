/**
 * `mcp-resolve ask` (the built bin) driven through a real pseudo-terminal: any server over stdio
 * (a command) or HTTP (a URL), both eras; forms, declines, sampling (the person plays the model)
 * and roots are all answered at the terminal.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createRefundDesk } from '../../../examples/stories/refund-desk/desk.js';
import { listRoots, McpResolveServer, resolver, sample, sampledText } from '../../../src/index.js';
import type { HttpServerHandle } from '../../../src/node/index.js';
import { serveHttp } from '../../../src/node/index.js';
import { parseAskArgs } from '../../../src/node/ask/command.js';
import type { Step } from '../../fixtures/pseudoTerminal.js';
import { playInTerminal } from '../../fixtures/pseudoTerminal.js';

const BIN = [process.execPath, 'dist/node/ask/cli.js'];
const DESK = [process.execPath, '--import', 'tsx', 'examples/stories/refund-desk/server.ts'];
const ANSWER_KEYS = 'a = answer, d = decline, c = cancel [a] > ';
const PICK = 'Tool (number or name, empty to quit) > ';

const handles: HttpServerHandle[] = [];
afterAll(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

/** A refund of the whole of ORD-7002, then a declined one, then quit. */
const REFUNDS: readonly Step[] = [
  { expect: '1) refund_order - Refund an order.' },
  { expect: PICK, type: '1' },
  { expect: 'order_id' },
  { expect: '  > ', type: 'ORD-7002' },
  { expect: 'reason' },
  { expect: '  > ', type: 'arrived broken' },
  { expect: '? ORD-7002 has several items' },
  { expect: ANSWER_KEYS, type: '' },
  { expect: '[y/N] > ', type: 'y' },
  { expect: '  > ', type: '' },
  { expect: '? The refund includes physical items' },
  { expect: ANSWER_KEYS, type: 'a' },
  { expect: '[y/N] > ', type: 'y' },
  { expect: 'structured: {"order_id":"ORD-7002","refunded_cents":4800,"restocked":true,"reason":"arrived broken"}' },
  { expect: PICK, type: 'refund_order' },
  { expect: '  > ', type: 'ORD-7002' },
  { expect: '  > ', type: 'changed mind' },
  { expect: ANSWER_KEYS, type: 'd' },
  { expect: "error: Resolver for parameter 'scope' could not resolve: elicitation was decline." },
  { expect: PICK, type: '' },
  { expect: 'bye' },
];

describe('mcp-resolve ask, in a pseudo-terminal', () => {
  it.each(['modern', 'legacy'] as const)('calls a stdio server started from a command on %s', async (era) => {
    const { screen, code } = await playInTerminal([...BIN, 'ask', '--era', era, ...DESK], REFUNDS);
    const version = era === 'modern' ? '2026-07-28' : '2025-11-25';
    expect(screen).toContain(`Connected to refund-desk (${DESK.join(' ')}, ${version}).`);
    expect(code).toBe(0);
  });

  it.each(['modern', 'legacy'] as const)('calls an HTTP server by URL on %s', async (era) => {
    const handle = await serveHttp(createRefundDesk().createServer);
    handles.push(handle);
    const { screen, code } = await playInTerminal([...BIN, 'ask', '--era', era, handle.url.href], REFUNDS);
    expect(screen).toContain(`Connected to refund-desk (${handle.url.href}`);
    expect(code).toBe(0);
  });

  it('lets the person play the model, and offers --root directories as roots', async () => {
    const summary = resolver({ args: { topic: z.string() } }, ({ topic }) =>
      sample({ messages: [{ role: 'user', content: { type: 'text', text: `Sum up ${topic}.` } }], maxTokens: 50 }),
    );
    const roots = resolver({}, () => listRoots());
    const server = new McpResolveServer({ name: 'notes', version: '1.0.0' }).tool(
      'note',
      { input: { topic: z.string() }, resolve: { summary, roots } },
      ({ summary, roots }) => `${sampledText(summary)} | roots: ${roots.map((root) => root.uri).join(',')}`,
    );
    const handle = await serveHttp(server);
    handles.push(handle);
    const { screen, code } = await playInTerminal(
      [...BIN, 'ask', '--root', '/tmp', handle.url.href],
      [
        { expect: PICK, type: 'note' },
        { expect: '  > ', type: 'tides' },
        { expect: '  user: Sum up tides.' },
        { expect: '  reply > ', type: 'The moon pulls the sea.' },
        { expect: 'result: The moon pulls the sea. | roots: file:///tmp' },
        { expect: PICK, type: '' },
        { expect: 'bye' },
      ],
    );
    expect(code).toBe(0);
    expect(screen).toContain('~ The server asks the model');
  });

  it('reaches a bearer-protected server with --header', async () => {
    const handle = await serveHttp(createRefundDesk().createServer, {
      authenticate: (request) =>
        request.headers.get('authorization') === 'Bearer desk-token'
          ? { token: 'desk-token', clientId: 'ask', scopes: [] }
          : new Response('Unauthorized', { status: 401 }),
    });
    handles.push(handle);
    const refused = await playInTerminal([...BIN, 'ask', handle.url.href], []);
    expect(refused.screen).toContain(`mcp-resolve ask: cannot connect to ${handle.url.href}: `);
    const args = ['ask', '--header', 'Authorization: Bearer desk-token', handle.url.href];
    const { screen, code } = await playInTerminal([...BIN, ...args], REFUNDS);
    expect(screen).toContain(`Connected to refund-desk (${handle.url.href}`);
    expect(code).toBe(0);
  });

  it('refuses a bad command line with a usage line and exit 2', async () => {
    const { screen, code } = await playInTerminal([...BIN, 'ask', '--era', 'future', 'x'], []);
    expect(screen).toContain('mcp-resolve: --era must be modern or legacy (got "future")');
    expect(screen).toContain('usage: mcp-resolve ask');
    expect(code).toBe(2);
  });

  it('names the target it cannot connect to, exit 1', async () => {
    const { screen, code } = await playInTerminal([...BIN, 'ask', 'http://127.0.0.1:9/mcp'], []);
    expect(screen).toContain('mcp-resolve ask: cannot connect to http://127.0.0.1:9/mcp: ');
    expect(code).toBe(1);
  });
});

describe('parseAskArgs', () => {
  it('reads flags up to the target; everything after a command is its own', () => {
    expect(parseAskArgs(['--era', 'legacy', 'node', 'server.js', '--port', '1'])).toEqual({
      era: 'legacy',
      roots: ['.'],
      headers: {},
      target: { command: 'node', args: ['server.js', '--port', '1'] },
    });
    expect(parseAskArgs(['--', '--odd-command'])).toMatchObject({ target: { command: '--odd-command', args: [] } });
    expect(parseAskArgs(['https://mcp.example.com/mcp'])).toMatchObject({
      target: { url: new URL('https://mcp.example.com/mcp') },
    });
  });

  it('says what is wrong', () => {
    expect(() => parseAskArgs([])).toThrow('name a URL or a command to start');
    expect(() => parseAskArgs(['--root'])).toThrow('--root needs a value');
    expect(() => parseAskArgs(['--verbose', 'x'])).toThrow('unknown option --verbose');
    expect(() => parseAskArgs(['--header', 'Bearer secret', 'http://127.0.0.1/mcp'])).toThrow(
      "--header must read 'NAME: VALUE', such as 'Authorization: Bearer <token>'",
    );
    expect(() => parseAskArgs(['--header', 'X-A: 1', 'node', 'server.js'])).toThrow(
      '--header applies to a URL only: a stdio server gets no HTTP requests',
    );
  });

  it('reads --header as NAME: VALUE, repeatable', () => {
    const args = ['--header', 'Authorization: Bearer t', '--header', 'X-Tenant:  acme ', 'http://127.0.0.1/mcp'];
    expect(parseAskArgs(args).headers).toEqual({ authorization: 'Bearer t', 'x-tenant': 'acme' });
  });
});
