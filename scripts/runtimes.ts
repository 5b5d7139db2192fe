/**
 * `npm run runtimes`: the refund desk on Node, Bun, Deno and workerd, each on loopback on a free
 * port, driven over HTTP by the story client (examples/stories/refund-desk/client.ts).
 *
 * - Node: `server.ts` (mcp-resolve/node). Bun: `bun.ts` run by Bun itself. Deno: `deno.ts` bundled
 *   by esbuild (Deno runs the bundle; the project's `.js`-suffixed TypeScript imports are a Node/TS
 *   convention Deno does not resolve). workerd: `worker.ts` bundled with the Worker conditions and
 *   served by the `workerd` binary (chosen over wrangler/miniflare: it is the runtime itself, one
 *   npm package, no dev server or account in between).
 * - Every runtime gets the 2026-07-28 story; Node, Bun and Deno also 2025-11-25; on workerd a
 *   2025-11-25 client must get the documented clean refusal.
 * - One token format everywhere: a call is continued across runtimes (a round sealed by Node opens
 *   on workerd and the other way round) with the same keys and audience.
 * - An independent Worker that imports the built `dist/` by package name (`npm run build` first)
 *   serves its own resolver tool under workerd and answers a modern client.
 * - The desk on workerd guards replays with Durable Objects (`mcp-resolve/workers`, in-memory
 *   storage): its final round sent 8 times at once completes once, and is refused after.
 *
 * Prints `runtimes <runtime> <era>: N passed, M failed` per line; exits non-zero on any failure;
 * stops every process it started and removes its temp dir on every exit path.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { isCallToolResult, isInputRequiredResult } from '@modelcontextprotocol/server';
import { MODERN_PROTOCOL_VERSION } from 'mcp-resolve/testing';

import { listeningUrl } from '../examples/stories/lib/serverProcess.js';
import { freePort, stopChild } from './lib/processes.js';
import {
  bundleModule,
  bundleWorker,
  durableObjectBinding,
  durableObjectNamespace,
  startWorkerd,
} from './lib/workerd.js';
import { runRefundDesk } from '../examples/stories/refund-desk/client.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STORY = join(ROOT, 'examples/stories/refund-desk');
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);

type Runtime = 'node' | 'bun' | 'deno' | 'workerd';

/** One line of the report. */
interface Line {
  readonly runtime: Runtime;
  readonly era: string;
  passed: number;
  failed: number;
}

const lines: Line[] = [];
const children: ChildProcess[] = [];
const verbose = process.argv.includes('--verbose');
const log = (text: string) => {
  if (verbose) console.error(text);
};

/** The report line of a runtime and era (checks beyond the story add to the same line). */
function line(runtime: Runtime, era: string): Line {
  const known = lines.find((entry) => entry.runtime === runtime && entry.era === era);
  if (known !== undefined) return known;
  const entry = { runtime, era, passed: 0, failed: 0 };
  lines.push(entry);
  return entry;
}

function check(target: Line, ok: boolean, what: string): void {
  if (ok) target.passed += 1;
  else target.failed += 1;
  if (!ok || verbose) console.error(`  ${target.runtime} ${target.era}: ${ok ? 'ok  ' : 'FAIL'} ${what}`);
}

/** Starts a process and resolves with the URL it prints (`listening on <url>`) on stderr. */
function startPrinting(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<URL> {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return listeningUrl(child, { name, timeoutMs: 60_000, onOutput: (chunk) => log(`[${name}] ${chunk.trimEnd()}`) });
}

/** Runs the story once on a URL and adds its counts to a line. */
async function story(runtime: Runtime, era: 'modern' | 'legacy', url: URL): Promise<void> {
  const target = line(runtime, era === 'modern' ? '2026-07-28' : '2025-11-25');
  const report = await runRefundDesk({ transport: 'http', era, url, log });
  target.passed += report.passed;
  target.failed += report.failed;
  if (report.failed > 0 && !verbose) console.error(`  ${runtime}: ${report.summary} (rerun with --verbose)`);
}

/** A 2025-11-25 `initialize` against workerd must be refused cleanly: HTTP 400, a JSON-RPC error naming 2026-07-28. */
async function legacyRefusal(url: URL): Promise<void> {
  const target = line('workerd', '2025-11-25');
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'legacy-client', version: '1.0.0' },
      },
    }),
  });
  const text = await response.text();
  log(`[workerd] legacy initialize → ${response.status} ${text}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const error = typeof body === 'object' && body !== null && 'error' in body ? body.error : undefined;
  check(target, response.status === 400, `legacy initialize answers HTTP 400 (got ${response.status})`);
  check(
    target,
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number',
    'the answer is a JSON-RPC error',
  );
  check(
    target,
    text.includes(MODERN_PROTOCOL_VERSION),
    `the error names the supported version ${MODERN_PROTOCOL_VERSION}`,
  );
  // A real legacy SDK client fails to connect, with that error, instead of hanging.
  const client = new Client(
    { name: 'legacy-client', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  const connected = await client.connect(new StreamableHTTPClientTransport(url)).then(
    () => true,
    () => false,
  );
  check(target, !connected, 'a 2025-11-25 SDK client is refused at connect');
  await client.close().catch(() => {});
}

/** A modern client whose every leg the caller drives (no auto-fulfilment). */
async function manualClient(url: URL): Promise<Client> {
  const client = new Client(
    { name: 'cross-runtime', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

async function leg(client: Client, params: Record<string, unknown>): Promise<unknown> {
  return client.request({ method: 'tools/call', params }, { allowInputRequired: true });
}

const REFUND_ARGS = { order_id: 'ORD-7002', reason: 'arrived broken' };
const RECEIPT = JSON.stringify({
  order_id: 'ORD-7002',
  refunded_cents: 4800,
  restocked: true,
  reason: 'arrived broken',
});

/**
 * Drives the refund call's first two rounds, round 1 on `a` and round 2 on `b` (which opens a's
 * token), and returns the final round's params (answering b's question), or `undefined` when a round failed.
 */
async function toFinalRound(
  target: Line,
  a: { runtime: Runtime; client: Client },
  b: { runtime: Runtime; client: Client },
): Promise<Record<string, unknown> | undefined> {
  const first = await leg(a.client, { name: 'refund_order', arguments: REFUND_ARGS });
  const firstKey = isInputRequiredResult(first) ? Object.keys(first.inputRequests ?? {})[0] : undefined;
  check(
    target,
    isInputRequiredResult(first) && firstKey !== undefined && typeof first.requestState === 'string',
    `${a.runtime} asks the scope question and seals its state`,
  );
  if (!isInputRequiredResult(first) || firstKey === undefined) return undefined;
  const second = await leg(b.client, {
    name: 'refund_order',
    arguments: REFUND_ARGS,
    inputResponses: { [firstKey]: { action: 'accept', content: { full: true } } },
    requestState: first.requestState,
  });
  const secondKey = isInputRequiredResult(second) ? Object.keys(second.inputRequests ?? {})[0] : undefined;
  check(
    target,
    isInputRequiredResult(second) && secondKey !== undefined,
    `${b.runtime} opens ${a.runtime}'s token and asks the next question`,
  );
  if (!isInputRequiredResult(second) || secondKey === undefined) return undefined;
  return {
    name: 'refund_order',
    arguments: REFUND_ARGS,
    inputResponses: { [secondKey]: { action: 'accept', content: { restock: true } } },
    requestState: second.requestState,
  };
}

/** Continues one call across two runtimes: round 1 on `a`, round 2 on `b` (opens a's token), round 3 on `a` (opens b's). */
async function crossRuntime(a: { runtime: Runtime; url: URL }, b: { runtime: Runtime; url: URL }): Promise<void> {
  const target = line(a.runtime, MODERN_PROTOCOL_VERSION);
  const [onA, onB] = await Promise.all([manualClient(a.url), manualClient(b.url)]);
  try {
    const final = await toFinalRound(target, { runtime: a.runtime, client: onA }, { runtime: b.runtime, client: onB });
    if (final === undefined) return;
    const third = await leg(onA, final);
    const receipt = isCallToolResult(third) ? third.structuredContent : undefined;
    check(
      target,
      JSON.stringify(receipt) === RECEIPT,
      `${a.runtime} opens ${b.runtime}'s token and completes the refund (${JSON.stringify(receipt)})`,
    );
  } finally {
    await Promise.all([onA.close(), onB.close()]);
  }
}

/** How a round ended: the receipt, the frozen replay refusal, or something else (described). */
async function finalOutcome(client: Client, params: Record<string, unknown>): Promise<string> {
  try {
    const result = await leg(client, params);
    return isCallToolResult(result) && JSON.stringify(result.structuredContent) === RECEIPT
      ? 'completed'
      : `answered ${JSON.stringify(result)}`;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return code === -32602 && typeof message === 'string' && message.includes('Invalid or expired requestState')
      ? 'refused'
      : `failed ${String(code)} ${String(message)}`;
  }
}

/**
 * The replay guard on Durable Objects: the desk and its twin are two isolates (two in-memory
 * guards) sharing one Durable Object namespace. The desk's final round, sent 8 times at once, 4 to
 * each, completes once and is refused 7 times with the frozen -32602; sent again to each, refused.
 */
async function replayedFinalRound(deskUrl: URL, twinUrl: URL): Promise<void> {
  const target = line('workerd', MODERN_PROTOCOL_VERSION);
  const [desk, twin] = await Promise.all([manualClient(deskUrl), manualClient(twinUrl)]);
  try {
    const final = await toFinalRound(
      target,
      { runtime: 'workerd', client: desk },
      { runtime: 'workerd', client: desk },
    );
    if (final === undefined) return;
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, async (_, index) => finalOutcome(index % 2 === 0 ? desk : twin, final)),
    );
    const count = (outcome: string) => outcomes.filter((seen) => seen === outcome).length;
    check(
      target,
      count('completed') === 1 && count('refused') === 7,
      `the final round sent 8 times at once to two isolates completes once and is refused 7 times with -32602 (${outcomes.join(', ')})`,
    );
    const again = await Promise.all([finalOutcome(desk, final), finalOutcome(twin, final)]);
    check(
      target,
      again.every((outcome) => outcome === 'refused'),
      `the final round replayed after the refund is refused by both isolates: -32602 Invalid or expired requestState (${again.join(', ')})`,
    );
  } finally {
    await Promise.all([desk.close(), twin.close()]);
  }
}

/** The independent Worker, outside the repository: imports `mcp-resolve` by package name, resolved to the built package. */
const INDEPENDENT_WORKER = `
import { z } from 'zod';
import { createDualEraHandler, elicit, McpResolveServer, resolver } from 'mcp-resolve';

const greeting = resolver({ args: { name: z.string() } }, ({ name }) =>
  elicit('How formal should the greeting to ' + name + ' be?', z.object({ formal: z.boolean() })),
);

let handler;
export default {
  fetch(request, env) {
    handler ??= createDualEraHandler(
      new McpResolveServer({ name: 'greeter', version: '1.0.0' }, { requestState: { keys: [env.KEY] } }).tool(
        'greet',
        { input: { name: z.string() }, resolve: { style: greeting } },
        ({ name, style }) => (style.formal ? 'Good day, ' + name + '.' : 'Hi ' + name + '!'),
      ),
      { legacy: 'reject' },
    );
    return handler.fetch(request);
  },
};
`;

async function independentWorker(url: URL): Promise<void> {
  const target = line('workerd', MODERN_PROTOCOL_VERSION);
  const client = new Client(
    { name: 'greeter-client', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } },
  );
  let asked = '';
  client.setRequestHandler('elicitation/create', (request) => {
    asked = request.params.message;
    return { action: 'accept', content: { formal: true } };
  });
  try {
    await client.connect(new StreamableHTTPClientTransport(url));
    const { tools } = await client.listTools();
    check(
      target,
      tools.length === 1 &&
        tools[0]?.name === 'greet' &&
        Object.keys(tools[0].inputSchema.properties ?? {}).join() === 'name',
      'lists greet(name) with only the model-facing input',
    );
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    check(target, asked === 'How formal should the greeting to Ada be?', `asks its resolver's question (${asked})`);
    check(target, !result.isError && text === 'Good day, Ada.', `answers from the resolved value (${text})`);
  } finally {
    await client.close();
  }
}

/** The ports workerd listens on: the desk, its twin (another isolate, same replay guard) and the independent Worker. */
interface WorkerdPorts {
  readonly desk: number;
  readonly twin: number;
  readonly independent: number;
}

function workerdConfig(ports: WorkerdPorts, keys: string, independentKey: string): string {
  const text = (value: string) => JSON.stringify(value);
  const sealing = `(name = "MCP_REQUEST_STATE_KEYS", text = ${text(keys)})`;
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "desk", worker = .desk), (name = "twin", worker = .twin), (name = "independent", worker = .independent) ],
  sockets = [
    (name = "desk", address = "127.0.0.1:${ports.desk}", http = (), service = "desk"),
    (name = "twin", address = "127.0.0.1:${ports.twin}", http = (), service = "twin"),
    (name = "independent", address = "127.0.0.1:${ports.independent}", http = (), service = "independent"),
  ],
);
const desk :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-01",
  ${durableObjectNamespace('ReplayGuardObject')}
  bindings = [ ${sealing}, ${durableObjectBinding('REPLAY_GUARD', 'ReplayGuardObject')} ],
);
const twin :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-01",
  bindings = [ ${sealing}, ${durableObjectBinding('REPLAY_GUARD', 'ReplayGuardObject', 'desk')} ],
);
const independent :Workerd.Worker = (
  modules = [ (name = "independent.js", esModule = embed "independent.js") ],
  compatibilityDate = "2025-09-01",
  bindings = [ (name = "KEY", text = ${text(independentKey)}) ],
);
`;
}

async function stopAll(): Promise<void> {
  await Promise.all(children.map((child) => stopChild(child, 5_000)));
}

async function main(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-resolve-runtimes-'));
  const onSignal = () =>
    void stopAll().then(() => rm(dir, { recursive: true, force: true }).finally(() => process.exit(130)));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // One key ring and one audience (the server name) for every runtime: tokens cross between them.
    const keys = randomBytes(32).toString('hex');
    const env = { ...process.env, MCP_REQUEST_STATE_KEYS: keys, PORT: '0', DENO_NO_UPDATE_CHECK: '1' };

    // `node:*` built-ins stay imports: Deno provides them.
    await bundleModule(join(STORY, 'deno.ts'), join(dir, 'deno.js'), {
      conditions: ['deno', 'import'],
      external: ['node:*'],
    });
    await bundleWorker(join(STORY, 'worker.ts'), join(dir, 'worker.js'));
    // The independent Worker lives outside the repository and finds mcp-resolve as an installed package would.
    const app = join(dir, 'independent');
    await writeFile(join(dir, 'package.json'), '{"type":"module"}');
    await rm(app, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(join(app, 'node_modules'), { recursive: true }));
    await symlink(ROOT, join(app, 'node_modules', 'mcp-resolve'), 'dir');
    await symlink(join(ROOT, 'node_modules', 'zod'), join(app, 'node_modules', 'zod'), 'dir'); // the app's own zod
    await writeFile(join(app, 'worker.js'), INDEPENDENT_WORKER);
    await writeFile(join(app, 'tsconfig.json'), '{}');
    await bundleWorker(join(app, 'worker.js'), join(dir, 'independent.js'), join(app, 'tsconfig.json'));

    const ports = { desk: await freePort(), twin: await freePort(), independent: await freePort() };
    await writeFile(join(dir, 'config.capnp'), workerdConfig(ports, keys, randomBytes(32).toString('hex')));
    const workerdUrl = new URL(`http://127.0.0.1:${ports.desk}/mcp`);
    const twinUrl = new URL(`http://127.0.0.1:${ports.twin}/mcp`);
    const independentUrl = new URL(`http://127.0.0.1:${ports.independent}/mcp`);

    const [nodeUrl, bunUrl, denoUrl] = await Promise.all([
      startPrinting(
        'node',
        process.execPath,
        ['--import', 'tsx', join(STORY, 'server.ts'), '--http', '--port', '0'],
        env,
      ),
      startPrinting('bun', bin('bun'), [join(STORY, 'bun.ts')], env),
      startPrinting(
        'deno',
        bin('deno'),
        ['run', '--allow-net', '--allow-env', '--no-prompt', join(dir, 'deno.js')],
        env,
      ),
      startWorkerd(join(dir, 'config.capnp'), [workerdUrl, twinUrl, independentUrl], {
        onOutput: (text) => log(`[workerd] ${text}`),
        onSpawn: (child) => children.push(child),
      }).then(() => undefined),
    ]);
    const urls: Record<Runtime, URL> = { node: nodeUrl, bun: bunUrl, deno: denoUrl, workerd: workerdUrl };

    for (const runtime of ['node', 'bun', 'deno', 'workerd'] as const) {
      await story(runtime, 'modern', urls[runtime]);
      if (runtime === 'workerd') await legacyRefusal(urls.workerd);
      else await story(runtime, 'legacy', urls[runtime]);
    }
    await crossRuntime({ runtime: 'node', url: urls.node }, { runtime: 'workerd', url: urls.workerd });
    await crossRuntime({ runtime: 'workerd', url: urls.workerd }, { runtime: 'node', url: urls.node });
    await replayedFinalRound(urls.workerd, twinUrl);
    await independentWorker(independentUrl);
  } catch (error) {
    const target = line('node', 'setup');
    check(target, false, error instanceof Error ? (error.stack ?? error.message) : String(error));
  } finally {
    await stopAll();
    await rm(dir, { recursive: true, force: true });
  }
  for (const entry of lines)
    console.log(`runtimes ${entry.runtime} ${entry.era}: ${entry.passed} passed, ${entry.failed} failed`);
  return lines.some((entry) => entry.failed > 0) || lines.length === 0 ? 1 : 0;
}

process.exitCode = await main();
