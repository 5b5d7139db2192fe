/**
 * `npm run fuzz`: a time-boxed fast-check run over every HTTP entry of the built package, on the
 * attack server (dist/, the `apps` option and answer pages on): MCP POST, GET and DELETE on both
 * eras (real requests recorded from the official client, then mutated), the app-only tool with any
 * arguments, and the answer page's GET and POST with any form. Every response is held to three
 * properties: no 5xx but a 503 (a masked, retryable refusal), no internal text in any body (a stack,
 * an error class, a backend's words), and no event-loop stall over 100 ms (one that the same request
 * causes again when sent twice more, so a machine busy elsewhere fails nothing); the heap after the run
 * grows less than 8 MB in the second half of the run (the bounded tables fill in the first).
 *
 * The seeds in scripts/fuzz/seeds.json (cases found before, and the attacks of issue 47) are sent
 * first, every run. A failing case is printed as a seed; outside CI it is also appended there.
 *
 *   npm run fuzz                 # 60 s, builds dist/ first when it is missing
 *   npm run fuzz -- --seconds 20
 *   npm run fuzz -- --seed 42    # replays fast-check's run of that seed
 *
 * Prints `fuzz: N passed, M failed` (requests checked, properties broken) and exits non-zero on a failure.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import fc from 'fast-check';
import { connectHttp } from 'mcp-resolve/testing';

import type { AttackServer } from './attack/harness.js';
import { Scope, buildServer, children, manualHttp } from './attack/harness.js';
import type { FuzzRequest, Recorded } from './fuzz/requests.js';
import { fuzzRequests } from './fuzz/requests.js';

const { values: flags } = parseArgs({ options: { seconds: { type: 'string' }, seed: { type: 'string' } } });
const SECONDS = Number(flags.seconds ?? 60);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SEEDS = join(ROOT, 'scripts/fuzz/seeds.json');
/** The longest event-loop delay a request may cause. */
const MAX_STALL_MS = 100;
/**
 * How much the heap may grow in the second half of the run: four 60 s runs moved it by -2.3 to
 * +0.6 MB (quarters such as 30.7, 30.8, 31.4 and 31.4 MB; the bounded tables fill in the first half);
 * the leaks this guards against grew tens of kB a request, hundreds of MB in a run. Finished replies
 * still reachable swung it by 20 MB (a streamed reply's listener on the leaving signal, kept until
 * undici finalized the Request). Single readings moved by up to 5.7 MB, hence `HEAP_READINGS`.
 */
const MAX_HEAP_GROWTH = 8e6;
/**
 * How many heap readings make one sample: the smallest counts, so memory that a collection has not
 * yet freed (a finalizer still queued) does not; what a leak holds is in every reading.
 */
const HEAP_READINGS = 3;
/** Text no client may read: a stack frame, an error class, a backend's own words. */
const LEAK =
  /\n\s+at |\b(TypeError|ReferenceError|RangeError|SyntaxError)\b|ECONNREFUSED|ECONNRESET|Redis|The client is offline|node:internal/;
const APPS_ONLY = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

if (!existsSync(join(ROOT, 'dist/index.js'))) {
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/** The attack server's heap: the smallest of `HEAP_READINGS` readings in a row (see `AttackServer.heap`). */
async function heapOf(server: AttackServer): Promise<number> {
  let smallest = Infinity;
  for (let reading = 0; reading < HEAP_READINGS; reading += 1) smallest = Math.min(smallest, await server.heap());
  return smallest;
}

/** Records every request a client makes through it. */
function recordingFetch(into: FuzzRequest[], origin: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === 'GET' || request.method === 'DELETE' ? undefined : await request.clone().text();
    const url = new URL(request.url);
    into.push({
      method: request.method,
      path: url.href.slice(origin.length),
      headers: Object.fromEntries(request.headers),
      ...(body !== undefined && { body }),
    });
    return fetch(request);
  };
}

/** Real requests of both eras, an open answer page and an open in-chat question on `server`. */
async function record(server: AttackServer, scope: Scope): Promise<Recorded> {
  const requests: FuzzRequest[] = [];
  const origin = server.url.origin;
  for (const era of ['modern', 'legacy'] as const) {
    const connection = await connectHttp(server.url, {
      era,
      elicit: () => ({ action: 'accept', content: { keep: true } }),
      transportOptions: { fetch: recordingFetch(requests, origin) },
    });
    await connection.client.listTools();
    await connection.client.callTool({ name: 'note', arguments: { text: `recorded ${era}` } });
    await connection.client.callTool({ name: 'echo', arguments: { text: 'recorded' } });
    await connection.close();
  }
  const legacy = await connectHttp(server.url, { era: 'legacy' });
  scope.defer(() => legacy.close());
  const transport = (legacy.client as unknown as { transport?: { sessionId?: string } }).transport;
  const noForms = await manualHttp(server.url, { capabilities: {} });
  scope.defer(() => noForms.close());
  const leg = await noForms.round('note', { text: 'a page to fuzz' });
  const link = leg.kind === 'complete' ? /https?:\/\/\S+\/mcp-resolve\/answer\/([\w-]{22})/.exec(leg.text) : null;
  if (link === null) throw new Error(`fuzz: no answer page link (${JSON.stringify(leg)})`);
  const shown = await fetch(link[0]);
  const token = /name="form-token" value="([^"]*)"/.exec(await shown.text())?.[1] ?? '';
  const cookie = shown.headers.get('set-cookie')?.split(';')[0] ?? '';
  const app = await manualHttp(server.url, { capabilities: APPS_ONLY });
  scope.defer(() => app.close());
  const handOff = await app.client.callTool({ name: 'letters', arguments: { text: 'fuzz' } });
  const appPage = (handOff._meta?.['io.github.mcp-resolve/question'] as { page?: string } | undefined)?.page ?? '';
  return {
    requests,
    page: { id: link[1]!, path: new URL(link[0]).pathname, token, cookie },
    appPage,
    sessionId: transport?.sessionId ?? 'none',
  };
}

/** A seed with the run's live values in place of its `{…}` placeholders. */
function filled(seed: FuzzRequest, recorded: Recorded): FuzzRequest {
  const values: Record<string, string> = {
    appPage: recorded.appPage,
    pagePath: recorded.page.path,
    token: recorded.page.token,
    cookie: recorded.page.cookie,
    session: recorded.sessionId,
  };
  const fill = (text: string) =>
    text.replace(/\{(appPage|pagePath|token|cookie|session)\}/g, (_, key: string) => values[key]!);
  return {
    method: seed.method,
    path: fill(seed.path),
    headers: Object.fromEntries(Object.entries(seed.headers).map(([name, text]) => [name, fill(text)])),
    ...(typeof seed.body === 'string' && { body: fill(seed.body) }),
  };
}

/** Sends `request` and reads what a client would (a stream: its first 2 s); the status and text. */
async function send(server: AttackServer, request: FuzzRequest): Promise<{ status: number; text: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 2_000);
  try {
    const response = await fetch(new URL(request.path, server.url.origin), {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined &&
        request.method !== 'GET' &&
        request.method !== 'HEAD' && { body: request.body }),
      signal: controller.signal,
    });
    let text = '';
    try {
      text = await response.text();
    } catch {
      // A stream still open after 2 s: what it sent so far is not read; the status is what counts.
    }
    return { status: response.status, text };
  } catch (error) {
    if (controller.signal.aborted) return { status: 0, text: '' };
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Why `request`'s response breaks a property, or `undefined`. */
async function broken(server: AttackServer, request: FuzzRequest): Promise<string | undefined> {
  const { status, text } = await send(server, request);
  if (status >= 500 && status !== 503) return `HTTP ${status}: ${text.slice(0, 300)}`;
  const leak = LEAK.exec(text);
  if (leak !== null) return `internal text "${leak[0].trim()}" in HTTP ${status}: ${text.slice(0, 300)}`;
  const stall = await server.stall();
  if (stall <= MAX_STALL_MS) return undefined;
  // A machine busy elsewhere delays the loop too: a stall counts only when the request causes it again, twice.
  const again: number[] = [stall];
  for (let replay = 0; replay < 2; replay += 1) {
    await send(server, request);
    again.push(await server.stall());
  }
  return again.every((ms) => ms > MAX_STALL_MS)
    ? `the event loop stalled ${again.join(', ')} ms, sent three times (limit ${MAX_STALL_MS})`
    : undefined;
}

const dir = mkdtempSync(join(tmpdir(), 'mcp-resolve-fuzz-'));
const scope = new Scope(dir);
let checked = 0;
const failures: string[] = [];
try {
  await buildServer();
  const server = await scope.server({ apps: true, answerPage: { backend: 'memory' } });
  const recorded = await record(server, scope);
  const seeds = JSON.parse(readFileSync(SEEDS, 'utf8')) as Array<FuzzRequest & { why: string }>;
  for (const seed of seeds) {
    const why = await broken(server, filled(seed, recorded));
    checked += 1;
    if (why !== undefined) failures.push(`seed "${seed.why}": ${why}`);
  }
  await server.stall();
  const started = performance.now();
  const heaps: number[] = [];
  const result = await fc.check(
    fc.asyncProperty(fuzzRequests(recorded), async (request) => {
      // The heap at each quarter of the run (see heapOf).
      if (performance.now() - started > ((heaps.length + 1) * SECONDS * 1000) / 4 && heaps.length < 3)
        heaps.push(await heapOf(server));
      checked += 1;
      const why = await broken(server, request);
      if (why !== undefined) throw new Error(why);
    }),
    {
      numRuns: 1_000_000,
      interruptAfterTimeLimit: SECONDS * 1000,
      markInterruptAsFailure: false,
      ...(flags.seed !== undefined && { seed: Number(flags.seed) }),
    },
  );
  if (result.failed && result.counterexample !== null) {
    const [request] = result.counterexample;
    failures.push(
      `${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)} (fast-check seed ${result.seed}, path ${result.counterexamplePath ?? '?'})`,
    );
    const seed = { why: `found by npm run fuzz (seed ${result.seed})`, ...request, body: request.body ?? null };
    console.log(`fuzz: a new seed:\n${JSON.stringify(seed, null, 2)}`);
    if (process.env.CI === undefined) writeFileSync(SEEDS, `${JSON.stringify([...seeds, seed], null, 2)}\n`);
  }
  heaps.push(await heapOf(server));
  // The bounded tables (sessions a client, pages a client, digests, patterns) fill in the first half; after it the heap stays flat.
  const half = heaps[1] ?? heaps[0]!;
  const end = heaps[heaps.length - 1]!;
  if (end - half > MAX_HEAP_GROWTH)
    failures.push(`the heap grew ${((end - half) / 1e6).toFixed(1)} MB in the second half of the run (limit 8 MB)`);
  console.log(
    `fuzz: ${checked} requests in ${((performance.now() - started) / 1000).toFixed(0)} s (${seeds.length} seeds first), heap at each quarter ${heaps.map((bytes) => (bytes / 1e6).toFixed(1)).join(' → ')} MB`,
  );
} catch (error) {
  failures.push(`the run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await scope.close();
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
for (const failure of failures) console.log(`FAIL ${failure}`);
console.log(`fuzz: ${checked - failures.length} passed, ${failures.length} failed`);
process.exit(failures.length === 0 ? 0 : 1);
