/**
 * Runs one logical `weather` call against one option's server and reports what the client saw.
 *
 *   npx tsx examples/mrtr-options/run.ts <e|a|b|c|d|f|g|h|j|e-naive> [--legacy] [--http]
 *   npx tsx examples/mrtr-options/run.ts <option> --mrtr-only --legacy
 *
 * By default the server runs over stdio (spawned: serve.ts) and the client speaks 2026-07-28;
 * `--legacy` makes the client speak 2025-11-25; `--http` serves over HTTP on a free port instead.
 * The human always answers "metric". The last three lines are `result: …`, `questions: <n>` and
 * `audit: <n>` (how many times the server ran its side effect); the exit code is 1 unless the
 * result is `Weather in Tokyo: 22°C`.
 *
 * `--mrtr-only --legacy`: an MRTR-only client (pinned to 2026-07-28, no fallback) against a
 * legacy-only server (a pre-MRTR deployment): it refuses to connect, with the SDK's message.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

import { serveHttp } from 'mcp-resolve/node';
import type { Era } from 'mcp-resolve';
import type { TestConnection } from 'mcp-resolve/testing';
import { connectHttp, connectStdio } from 'mcp-resolve/testing';

import type { DeckOption } from './deck.js';
import { isOptionName, NAIVE_E, OPTIONS } from './deck.js';

const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url));
const EXPECTED = 'Weather in Tokyo: 22°C';
const PROTOCOL: Record<Era, string> = { modern: '2026-07-28', legacy: '2025-11-25' };

interface Served {
  connect(era: Era, elicit: (params: ElicitRequest['params']) => ElicitResult): Promise<TestConnection>;
  stop(): Promise<void>;
}

/** Serves `option` the way the flags say: spawned over stdio, or over HTTP in this process; both eras unless `legacyOnly`. */
async function serve(name: string, option: DeckOption, http: boolean, legacyOnly: boolean): Promise<Served> {
  if (!http) {
    const args = ['--import', 'tsx', SERVE, name, ...(legacyOnly ? ['--legacy-only'] : [])];
    return {
      connect: (era, elicit) => connectStdio(process.execPath, args, { era, elicit }),
      stop: async () => {},
    };
  }
  if (!legacyOnly) {
    const handle = await serveHttp(option.server(), { port: 0 });
    return { connect: (era, elicit) => connectHttp(handle.url, { era, elicit }), stop: () => handle.close() };
  }
  // A legacy-only HTTP deployment: the SDK's sessionful transport, with no 2026-07-28 leg at all.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await option.server().createServer().connect(transport);
  const handler = toNodeHandler({ fetch: (request) => transport.handleRequest(request) });
  const server = createHttpServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  return {
    connect: (era, elicit) => connectHttp(url, { era, elicit }),
    stop: async () => {
      await transport.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Runs the command line in `argv`; returns the exit code. */
export async function run(
  argv: readonly string[],
  log: (line: string) => void = (line) => console.log(line),
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      legacy: { type: 'boolean', default: false },
      http: { type: 'boolean', default: false },
      'mrtr-only': { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  const name = positionals[0];
  const option = name === 'e-naive' ? NAIVE_E : isOptionName(name) ? OPTIONS[name] : undefined;
  if (name === undefined || option === undefined) {
    log(`usage: run.ts <${Object.keys(OPTIONS).join('|')}|e-naive> [--legacy] [--http] [--mrtr-only]`);
    return 2;
  }
  const transportName = values.http ? 'http' : 'stdio';
  const mrtrOnly = values['mrtr-only'];
  const era: Era = values.legacy && !mrtrOnly ? 'legacy' : 'modern';
  let questions = 0;
  const elicit = (params: ElicitRequest['params']): ElicitResult => {
    questions += 1;
    log(`  human ← "${params.message}" → metric`);
    return { action: 'accept', content: { units: 'metric' } };
  };

  const served = await serve(name, option, values.http, mrtrOnly && values.legacy);
  let connection: TestConnection | undefined;
  try {
    if (mrtrOnly) {
      const server = values.legacy ? 'a legacy-only (2025-11-25) server' : 'a dual-era server';
      log(
        `option ${option.title} — MRTR-only client (pinned to 2026-07-28, no fallback) vs ${server}, over ${transportName}`,
      );
      try {
        connection = await served.connect('modern', elicit);
      } catch (error) {
        log(`  refused: ${error instanceof Error ? error.message : String(error)}`);
        log('  An MRTR-only client never falls back to the legacy era: upgrade the server, or connect in auto mode.');
        return values.legacy ? 0 : 1;
      }
      if (values.legacy) {
        log('  FAIL: the MRTR-only client connected to a legacy-only server');
        return 1;
      }
    } else {
      log(`option ${option.title} — ${PROTOCOL[era]} client over ${transportName}`);
      connection = await served.connect(era, elicit);
    }
    const { client, counters } = connection;
    const readAudits = async () => {
      const audit = await client.callTool({ name: 'audit_count', arguments: {} });
      return Number(audit.content.map((block) => (block.type === 'text' ? block.text : '')).join(''));
    };
    const auditsBefore = await readAudits();
    counters.reset();
    const result = await client.callTool({ name: 'weather', arguments: { location: 'Tokyo' } });
    const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
    const legs = counters.legs['tools/call'] ?? 0;
    log(`  wire: ${legs} tools/call leg(s), ${counters.pushes} server push(es)`);
    const audits = (await readAudits()) - auditsBefore;
    log(`result: ${result.isError === true ? `error: ${text}` : text}`);
    log(`questions: ${questions}`);
    log(`audit: ${audits}`);
    return result.isError !== true && text === EXPECTED ? 0 : 1;
  } finally {
    await connection?.close();
    await served.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await run(process.argv.slice(2));
