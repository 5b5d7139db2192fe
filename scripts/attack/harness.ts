/**
 * The small harness `npm run attack` cases share: a case scope whose processes (redis-server,
 * attack servers, nginx) are torn down when the case ends, however it ends; the attack server
 * started from dist/; and the client-side tools an attacker uses (raw HTTP, raw sockets, a modern
 * client that answers rounds by hand).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities, InputRequest } from '@modelcontextprotocol/client';
import { isCallToolResult, isInputRequiredResult } from '@modelcontextprotocol/client';
import { build } from 'esbuild';
import { createClient } from 'redis';

import { startNginx } from '../lib/fleetSetup.js';
import type { RedisServer } from '../lib/processes.js';
import { findBinary, freePort, startRedisServer, stopChild } from '../lib/processes.js';
import type { ServerConfig } from './server.js';

const SOURCE = fileURLToPath(new URL('./server.ts', import.meta.url));
/**
 * server.ts as plain JavaScript, next to it so that `mcp-resolve/*` resolves through the package's
 * own exports to dist/ and its other imports to node_modules (and a start takes half the time tsx takes).
 */
const SERVER = fileURLToPath(new URL('./.build/server.mjs', import.meta.url));

/** Writes {@link SERVER} from server.ts (types stripped, imports kept). */
export async function buildServer(): Promise<void> {
  await build({
    entryPoints: [SOURCE],
    outfile: SERVER,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
}

/** What one check of a case found: the measured figure next to the limit. */
export interface Outcome {
  readonly name: string;
  readonly ok: boolean;
  /** e.g. `0 of 20 replays accepted (limit 0)`. */
  readonly figure: string;
}

/** One attack: bounded in count and time (`timeoutMs`), reporting one or more outcomes. */
export interface Case {
  readonly name: string;
  readonly timeoutMs: number;
  /** The options of issue 29's fixes the case relies on (for the report). */
  readonly options?: readonly string[];
  run(scope: Scope): Promise<Outcome[]>;
}

/** An outcome from a comparison. */
export const outcome = (name: string, ok: boolean, figure: string): Outcome => ({ name, ok, figure });

/** Every child process alive, across cases: killed on any exit. */
export const children = new Set<ChildProcess>();

/** Adds `child` to {@link children} until it exits. */
export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Redis with a client for the attacker's own measurements. */
export interface AttackRedis extends RedisServer {
  /** Keys under `prefix` (SCAN, bounded). */
  count(prefix: string): Promise<number>;
  /** A field of `INFO` (e.g. `used_memory`, `total_net_input_bytes`). */
  info(field: string): Promise<number>;
  /** `CONFIG SET name value`. */
  configSet(name: string, value: string): Promise<void>;
}

/** A running attack server (scripts/attack/server.ts on dist/, see {@link buildServer}). */
export interface AttackServer {
  readonly url: URL;
  readonly port: number;
  readonly child: ChildProcess;
  /** Lines it wrote on stderr so far. */
  readonly stderr: string[];
  /** Heap used after a full GC and the finalizers it queued, bytes. */
  heap(): Promise<number>;
  /** The longest event-loop delay since the last call, ms. */
  stall(): Promise<number>;
  /** Spans it exported, by trace id (only with `otel`). */
  spans(): Promise<Record<string, number>>;
  /** Open file descriptors of the process. */
  fds(): number;
  stop(): Promise<void>;
}

/** How an attack server start ended: listening, or exited (refused to start). */
export type Started = { readonly server: AttackServer } | { readonly exitCode: number; readonly stderr: string[] };

/** What a case may start; everything started is stopped when the case ends. */
export class Scope {
  private readonly cleanups: Array<() => Promise<void>> = [];
  readonly keys = randomBytes(32).toString('hex');

  constructor(readonly dir: string) {}

  /** Runs `cleanup` when the case ends (last registered, first run). */
  defer(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /** Stops everything the case started; a cleanup that has not ended in 5 s is left (nothing waits forever). */
  async close(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0).reverse()) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, 5_000);
      });
      await Promise.race([cleanup().catch(() => undefined), late]);
      clearTimeout(timer);
    }
  }

  /** A redis-server (extra args e.g. `--maxmemory 40mb --maxmemory-policy volatile-lru`). */
  async redis(args: readonly string[] = []): Promise<AttackRedis> {
    // processes.ts passes noeviction itself; later arguments win, so ours come after it.
    const server = await startRedisServer();
    this.defer(() => server.dispose());
    const client = createClient({ url: server.url });
    client.on('error', () => undefined);
    await client.connect();
    // destroy(), not quit(): a quit waits for Redis to answer, and a case may have stopped or restarted it.
    this.defer(async () => void client.destroy());
    const configSet = async (name: string, value: string) => void (await client.configSet(name, value));
    for (let index = 0; index < args.length; index += 2)
      await configSet(args[index]!.replace(/^--/, ''), args[index + 1]!);
    return {
      url: server.url,
      port: server.port,
      stop: (hard) => server.stop(hard),
      pause: () => server.pause(),
      resume: () => server.resume(),
      restart: () => server.restart(),
      running: () => server.running(),
      dispose: () => server.dispose(),
      async count(prefix: string) {
        let n = 0;
        for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) n += keys.length;
        return n;
      },
      configSet,
      async info(field: string) {
        const text = await client.info();
        const match = new RegExp(`^${field}:(\\d+)`, 'm').exec(text);
        return match === null ? Number.NaN : Number(match[1]);
      },
    };
  }

  /** Starts an attack server; resolves when it listens or when it exits first. */
  async tryServer(config: Omit<ServerConfig, 'port' | 'probePort'>): Promise<Started> {
    const [port, probePort] = [await freePort(), await freePort()];
    const full: ServerConfig = { ...config, port, probePort };
    const child = track(
      spawn(process.execPath, ['--expose-gc', SERVER], {
        env: {
          ...process.env,
          ATTACK_CONFIG: JSON.stringify(full),
          MCP_REQUEST_STATE_KEYS: this.keys,
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      }),
    );
    this.defer(() => stopChild(child, 1_000));
    const stderr: string[] = [];
    let partial = '';
    child.stderr!.setEncoding('utf8');
    const ready = new Promise<boolean>((resolve) => {
      child.stderr!.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          stderr.push(line);
          if (line.startsWith('attack-server ready')) resolve(true);
        }
      });
      child.once('exit', () => resolve(false));
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const listening = await ready;
    clearTimeout(timer);
    if (!listening) return { exitCode: child.exitCode ?? -1, stderr: [...stderr, partial] };
    const probe = (path: string) => fetch(`http://127.0.0.1:${probePort}${path}`).then((response) => response.text());
    return {
      server: {
        url: new URL(`http://127.0.0.1:${port}/mcp`),
        port,
        child,
        stderr,
        heap: async () => Number(await probe('/heap')),
        stall: async () => Number(await probe('/stall')),
        spans: async () => JSON.parse(await probe('/spans')) as Record<string, number>,
        fds: () => {
          try {
            return readdirSync(`/proc/${child.pid}/fd`).length;
          } catch {
            return Number.NaN;
          }
        },
        stop: () => stopChild(child, 1_000),
      },
    };
  }

  /** Starts an attack server, failing when it does not listen. */
  async server(config: Omit<ServerConfig, 'port' | 'probePort'>): Promise<AttackServer> {
    const started = await this.tryServer(config);
    if ('server' in started) return started.server;
    throw new Error(`attack server exited (${started.exitCode}): ${started.stderr.slice(-5).join(' | ')}`);
  }

  /** nginx round-robin over `ports`; resolves to its /mcp URL. */
  async nginx(ports: readonly number[]): Promise<URL> {
    const binary = findBinary('nginx');
    if (binary === undefined) throw new Error('nginx is not installed');
    const port = await freePort();
    const nginx = await startNginx(binary, join(this.dir, `nginx-${port}`), port, ports, track);
    this.defer(() => stopChild(nginx, 1_000));
    return new URL(`http://127.0.0.1:${port}/mcp`);
  }
}

// ---------------------------------------------------------------------------------------------
// The attacker's tools
// ---------------------------------------------------------------------------------------------

/** What a raw HTTP exchange came back with. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One HTTP request over node:http (any Host, any local address), bounded by `timeoutMs`. */
export function raw(
  url: URL,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    localAddress?: string;
    timeoutMs?: number;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method ?? 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...options.headers,
        },
        ...(options.localAddress !== undefined && { localAddress: options.localAddress }),
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          // An SSE answer stays open: the first event is enough.
          if (res.headers['content-type']?.startsWith('text/event-stream') && body.includes('\n\n')) res.destroy();
        });
        res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.setTimeout(options.timeoutMs ?? 10_000, () => req.destroy(new Error('raw request timed out')));
    req.end(options.body);
  });
}

/** The JSON-RPC message of a raw response (plain JSON or the first SSE event). */
export function messageOf(response: RawResponse): { result?: unknown; error?: { code: number; message: string } } {
  const text = response.body.startsWith('{')
    ? response.body
    : (response.body
        .split('\n')
        .find((line) => line.startsWith('data:'))
        ?.slice(5) ?? '{}');
  try {
    return JSON.parse(text) as { result?: unknown; error?: { code: number; message: string } };
  } catch {
    return {};
  }
}

/** A legacy `initialize` body declaring `capabilities`. */
export const initialize = (capabilities: object, id: number | string = 0) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'attacker', version: '1' } },
  });

/** Capabilities padded to about `bytes` of JSON. */
export const paddedCapabilities = (bytes: number): object => ({
  elicitation: { form: {} },
  experimental: { pad: { blob: 'x'.repeat(bytes) } },
});

/** Opens a legacy session with raw HTTP; the session id, or the refusal. */
export async function rawSession(
  url: URL,
  capabilities: object,
  localAddress?: string,
  headers: Record<string, string> = {},
): Promise<{ sessionId?: string; response: RawResponse }> {
  const response = await raw(url, { body: initialize(capabilities), headers, ...(localAddress && { localAddress }) });
  const sessionId = response.headers['mcp-session-id'];
  if (response.status !== 200 || typeof sessionId !== 'string') return { response };
  await raw(url, {
    headers: { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    ...(localAddress && { localAddress }),
  });
  return { sessionId, response };
}

/** What one modern leg came back with. */
export type Leg =
  | { readonly kind: 'complete'; readonly text: string; readonly isError: boolean }
  | {
      readonly kind: 'input_required';
      readonly inputRequests: Readonly<Record<string, InputRequest>>;
      readonly requestState: string | undefined;
    }
  | { readonly kind: 'error'; readonly message: string };

/** A 2026-07-28 client that answers rounds by hand, over HTTP. */
export interface ManualHttp {
  readonly client: Client;
  round(
    name: string,
    args: Record<string, unknown>,
    more?: { inputResponses?: Record<string, unknown>; requestState?: string | undefined; _meta?: object },
  ): Promise<Leg>;
  close(): Promise<void>;
}

/** Connects a {@link ManualHttp} to `url` (optionally as bearer `token`). */
export async function manualHttp(
  url: URL,
  options: { token?: string; capabilities?: ClientCapabilities; timeoutMs?: number } = {},
): Promise<ManualHttp> {
  const transport = new StreamableHTTPClientTransport(url, {
    ...(options.token !== undefined && { requestInit: { headers: { authorization: `Bearer ${options.token}` } } }),
  });
  const client = new Client(
    { name: 'attacker', version: '1.0.0' },
    {
      capabilities: options.capabilities ?? { elicitation: { form: {}, url: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(transport);
  return {
    client,
    async round(name, args, more = {}) {
      const params: Record<string, unknown> = { name, arguments: args };
      if (more.inputResponses !== undefined) params.inputResponses = more.inputResponses;
      if (more.requestState !== undefined) params.requestState = more.requestState;
      if (more._meta !== undefined) params._meta = more._meta;
      let result: unknown;
      try {
        result = await client.request(
          { method: 'tools/call', params },
          { allowInputRequired: true, timeout: options.timeoutMs ?? 10_000 },
        );
      } catch (error) {
        return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
      }
      if (isInputRequiredResult(result))
        return { kind: 'input_required', inputRequests: result.inputRequests ?? {}, requestState: result.requestState };
      if (!isCallToolResult(result)) return { kind: 'error', message: `neither result: ${JSON.stringify(result)}` };
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return { kind: 'complete', text, isError: result.isError === true };
    },
    close: () => client.close().catch(() => undefined),
  };
}

/** An accepted form answer. */
export const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/**
 * A loopback source address for the `index`th anonymous client of a flood (127.0.0.10-29), so a
 * flood tests the budgets rather than the per-client cap.
 */
export const spread = (index: number): string => `127.0.0.${10 + (index % 20)}`;

/** Milliseconds since `start`, rounded. */
export const since = (start: number): number => Math.round(performance.now() - start);

/** Waits `ms`. */
export const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/** Bytes as `12.3 MB`. */
export const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
