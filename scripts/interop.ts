/**
 * `npm run interop`: mcp-resolve against the official MCP Python SDK (`mcp==2.3.0`), both ways.
 *
 * - Python clients (interop/python, written here on the SDK's public `Client`) drive our refund
 *   desk, the mrtr and legacy-elicitation stories, the -32021 gate and the conformance fixture's
 *   several-questions/sample/listRoots tools, over stdio and HTTP on 2026-07-28 and 2025-11-25.
 * - Trace context: the Python client runs the desk under a W3C trace context per call, which the
 *   SDK client injects into `params._meta`; our desk exports its spans (`--otel file:PATH`) and the
 *   client checks that our SERVER spans continue its traces (interop/python/mcp_interop/trace.py),
 *   over stdio and HTTP on both eras.
 * - Our story client drives a refund desk written on the SDK's `MCPServer` + `Resolve` over HTTP on
 *   both eras (its checks of our own extras, e.g. form titles, are reported apart), and our test
 *   client probes that server's several-questions, sample, listRoots, URL-mode and gate behaviour.
 *
 * Prints `interop <client>-><server> <transport> <era>: N passed, M failed` per run; exits 1 on any
 * failure. The venv is cached under node_modules/.cache (scripts/lib/python.ts). `--verbose` prints
 * every check, not only failures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { Era } from 'mcp-resolve';
import { connectHttp } from 'mcp-resolve/testing';

import { listeningUrl, startHttpServer, type HttpServerProcess } from '../examples/stories/lib/serverProcess.js';
import { runRefundDesk } from '../examples/stories/refund-desk/client.js';
import { stopChild } from './lib/processes.js';
import { ensurePythonEnv, type PythonEnv } from './lib/python.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON_DIR = join(ROOT, 'interop', 'python');
const CACHE = join(ROOT, 'node_modules', '.cache', 'mcp-resolve-interop');
const STORY = (name: string): string => join(ROOT, 'examples', 'stories', name, 'server.ts');
const CONFORMANCE = join(ROOT, 'scripts', 'conformance', 'server.ts');
const PROTOCOL: Record<Era, string> = { modern: '2026-07-28', legacy: '2025-11-25' };
const ERAS: readonly Era[] = ['modern', 'legacy'];

const { values } = parseArgs({ options: { verbose: { type: 'boolean', default: false } } });

/** One run's counts. */
interface RunResult {
  readonly line: string;
  readonly failed: number;
}

const results: RunResult[] = [];
const children = new Set<ChildProcess>();

/** Records a run: prints its failing (or, verbose, all) check lines, then its summary line. */
function record(label: string, checks: readonly string[], extra = ''): void {
  const failed = checks.filter((line) => /^\s*FAIL\b/.test(line)).length;
  const passed = checks.filter((line) => /^\s*ok\b/.test(line)).length;
  for (const line of checks) if (values.verbose || /^\s*FAIL\b/.test(line)) console.log(line);
  const line = `interop ${label}: ${passed} passed, ${failed} failed${extra}`;
  console.log(line);
  results.push({ line, failed: failed > 0 || passed === 0 ? Math.max(failed, 1) : 0 });
}

/** Runs the Python client for `story` and records its checks. */
async function pythonClient(env: PythonEnv, story: string, era: Era, label: string, target: string[]): Promise<void> {
  const child = spawn(env.python, ['-m', 'mcp_interop.client', story, '--era', era, '--label', label, ...target], {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: PYTHON_DIR },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  children.delete(child);
  const checks = out.split('\n').filter((line) => /^\s+(ok|FAIL)\b/.test(line));
  if (code !== 0 && !checks.some((line) => line.includes('FAIL')))
    checks.push(`    FAIL exit ${String(code)}: ${err.trim()}`);
  record(label, checks);
}

/** Starts the Python desk over HTTP (optionally with its probe tools). */
async function startPythonDesk(env: PythonEnv, probes: boolean): Promise<{ url: URL; stop: () => Promise<void> }> {
  const child = spawn(env.python, ['-m', 'mcp_interop.desk_server', '--port', '0', ...(probes ? ['--probes'] : [])], {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: PYTHON_DIR },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  const url = await listeningUrl(child, { name: 'python desk', timeoutMs: 30_000 });
  return { url, stop: async () => (await stopChild(child), void children.delete(child)) };
}

/** Starts the conformance fixture server (it takes `--port`, not `--http`). */
async function startConformance(): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CONFORMANCE, '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  const url = await listeningUrl(child, { name: 'conformance fixture server', timeoutMs: 30_000 });
  return { url, stop: async () => (await stopChild(child), void children.delete(child)) };
}

/** Runs `body` with one of our servers on HTTP (a story's, unless `start` is given), stopping it afterwards. */
async function withOurServer(
  entry: string,
  name: string,
  body: (url: string) => Promise<void>,
  start: () => Promise<HttpServerProcess> = () => startHttpServer(entry, name),
): Promise<void> {
  const server = await start();
  try {
    await body(server.url.href);
  } finally {
    await server.stop();
  }
}

/** Python clients against our servers, stdio and HTTP. */
async function pythonAgainstUs(env: PythonEnv): Promise<void> {
  const stdio = (entry: string): string[] => ['--stdio', process.execPath, '--import', 'tsx', entry];
  for (const era of ERAS) {
    await pythonClient(env, 'desk', era, `python->ts/refund-desk stdio ${PROTOCOL[era]}`, stdio(STORY('refund-desk')));
  }
  await pythonClient(env, 'mrtr', 'modern', 'python->ts/mrtr stdio 2026-07-28', stdio(STORY('mrtr')));
  for (const era of ERAS) {
    const label = `python->ts/legacy-elicitation stdio ${PROTOCOL[era]}`;
    await pythonClient(env, 'legacy-elicitation', era, label, stdio(STORY('legacy-elicitation')));
  }
  await withOurServer(STORY('refund-desk'), 'refund-desk', async (url) => {
    for (const era of ERAS) {
      await pythonClient(env, 'desk', era, `python->ts/refund-desk http ${PROTOCOL[era]}`, ['--url', url]);
      await pythonClient(env, 'gate', era, `python->ts/refund-desk(no elicitation) http ${PROTOCOL[era]}`, [
        '--url',
        url,
      ]);
    }
  });
  await withOurServer(STORY('mrtr'), 'mrtr', (url) =>
    pythonClient(env, 'mrtr', 'modern', 'python->ts/mrtr http 2026-07-28', ['--url', url]),
  );
  await withOurServer(STORY('legacy-elicitation'), 'legacy-elicitation', (url) =>
    pythonClient(env, 'legacy-elicitation', 'legacy', 'python->ts/legacy-elicitation http 2025-11-25', ['--url', url]),
  );
  await withOurServer(
    CONFORMANCE,
    'conformance',
    async (url) => {
      for (const era of ERAS)
        await pythonClient(env, 'extras', era, `python->ts/conformance http ${PROTOCOL[era]}`, ['--url', url]);
    },
    startConformance,
  );
}

/** A fresh span file for one traced run. */
function spanFile(name: string): string {
  mkdirSync(join(CACHE, 'spans'), { recursive: true });
  const path = join(CACHE, 'spans', `${name}.jsonl`);
  rmSync(path, { force: true });
  return path;
}

/** The Python client's trace context continued by our desk's SERVER spans, over stdio and HTTP on both eras. */
async function pythonTraceContext(env: PythonEnv): Promise<void> {
  for (const era of ERAS) {
    const spans = spanFile(`stdio-${era}`);
    const server = ['--stdio', process.execPath, '--import', 'tsx', STORY('refund-desk'), '--otel', `file:${spans}`];
    const label = `python->ts/refund-desk traced stdio ${PROTOCOL[era]}`;
    await pythonClient(env, 'desk', era, label, ['--spans', spans, ...server]);
  }
  const spans = spanFile('http');
  await withOurServer(
    STORY('refund-desk'),
    'refund-desk',
    async (url) => {
      for (const era of ERAS) {
        const label = `python->ts/refund-desk traced http ${PROTOCOL[era]}`;
        await pythonClient(env, 'desk', era, label, ['--spans', spans, '--url', url]);
      }
    },
    () => startHttpServer(STORY('refund-desk'), 'refund-desk', ['--otel', `file:${spans}`]),
  );
}

/** Our story client against the Python desk; the checks of our own extras (form guidance) are counted apart. */
async function usAgainstPythonDesk(env: PythonEnv): Promise<void> {
  const desk = await startPythonDesk(env, false);
  try {
    for (const era of ERAS) {
      const lines: string[] = [];
      await runRefundDesk({ transport: 'http', era, url: desk.url, log: (line) => lines.push(line) });
      const checks = lines.filter((line) => /^\s+(ok|FAIL)\b/.test(line));
      const ours = checks.filter((line) => line.includes('guides'));
      const oursPassed = ours.filter((line) => /^\s*ok\b/.test(line)).length;
      record(
        `ts->python/refund-desk http ${PROTOCOL[era]}`,
        checks.filter((line) => !ours.includes(line)),
        ` (our extras, not the seed's: ${oursPassed} of ${ours.length} form-guidance checks hold)`,
      );
    }
  } finally {
    await desk.stop();
  }
}

/** The text of a tool result. */
function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}

/** Our test client against the Python desk's probe tools: several questions, sample, roots, URL mode, the gate. */
async function usAgainstPythonProbes(env: PythonEnv): Promise<void> {
  const desk = await startPythonDesk(env, true);
  try {
    for (const era of ERAS) {
      const checks: string[] = [];
      const check = (ok: boolean, what: string): number => checks.push(`    ${ok ? 'ok  ' : 'FAIL'} ${what}`);
      const asked: ElicitRequest['params'][] = [];
      const connection = await connectHttp(desk.url, {
        era,
        capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
        elicit: (params): ElicitResult => {
          asked.push(params);
          if (params.mode === 'url') return { action: 'accept' };
          const field = 'name' in params.requestedSchema.properties ? 'name' : 'colour';
          return { action: 'accept', content: { [field]: field === 'name' ? 'ada' : 'teal' } };
        },
        sample: () => ({ role: 'assistant', content: { type: 'text', text: 'hi there' }, model: 'interop' }),
        roots: () => ({ roots: [{ uri: 'file:///interop/ws', name: 'ws' }] }),
      });
      try {
        const { client, counters } = connection;
        await client.listTools();
        counters.reset();
        const pair = await client.callTool({ name: 'pair', arguments: {} });
        const legs = counters.legs['tools/call'] ?? 0;
        check(
          textOf(pair) === 'ada likes teal',
          `pair: two answers reach the tool (got ${JSON.stringify(textOf(pair))})`,
        );
        check(
          era === 'modern' ? legs === 2 && counters.pushes === 0 : counters.pushes === 2,
          `pair: ${era === 'modern' ? 'both questions in one round (2 legs)' : '2 pushes'} (saw ${legs} leg(s), ${counters.pushes} push(es))`,
        );
        const probe = await client.callTool({ name: 'context_probe', arguments: {} });
        check(
          textOf(probe) === "sampled 'hi there'; roots file:///interop/ws",
          `context_probe: sample and listRoots answered (got ${JSON.stringify(textOf(probe))})`,
        );
        asked.length = 0;
        if (era === 'legacy') {
          const link = await client.callTool({ name: 'link', arguments: { provider: 'github' } });
          const url = asked[0]?.mode === 'url' ? asked[0].url : undefined;
          check(
            textOf(link) === 'linked github' && url === 'https://example.com/signin/github',
            `link: a URL-mode push, accepted (got ${JSON.stringify(textOf(link))}, ${String(url)})`,
          );
        } else {
          // Finding, not a check: the Python SDK's Context.elicit_url is a push, which 2026-07-28 has no channel for.
          const link = await client.callTool({ name: 'link', arguments: { provider: 'github' } }).then(
            (result) => textOf(result),
            (error: unknown) => (error instanceof Error ? error.message : String(error)),
          );
          console.log(`    note link (Python Context.elicit_url) on 2026-07-28: ${link}`);
        }
      } finally {
        await connection.close();
      }
      const bare = await connectHttp(desk.url, { era, capabilities: {} });
      try {
        await bare.client.listTools();
        const gated = await bare.client
          .callTool({ name: 'refund_order', arguments: { order_id: 'ORD-7002', reason: 'no ui' } })
          .then(
            (result) => `result: ${textOf(result)}`,
            (error: unknown) =>
              `error ${String((error as { code?: unknown }).code)}: ${error instanceof Error ? error.message : String(error)}`,
          );
        check(gated.startsWith('error -32021'), `gate: a client without elicitation gets -32021 (got ${gated})`);
      } finally {
        await bare.close();
      }
      record(`ts->python/probes http ${PROTOCOL[era]}`, checks);
    }
  } finally {
    await desk.stop();
  }
}

/** Type-checks (mypy --strict) and unit-tests (pytest) the Python code. */
async function checkPythonCode(env: PythonEnv): Promise<void> {
  const runTool = (tool: string, args: string[]): Promise<{ code: number | null; out: string }> =>
    new Promise((resolve) => {
      const child = spawn(join(env.bin, tool), args, {
        cwd: PYTHON_DIR,
        env: { ...process.env, PYTHONPATH: PYTHON_DIR },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.once('exit', (code) => resolve({ code, out }));
    });
  const mypy = await runTool('mypy', ['--strict', '--cache-dir', join(CACHE, 'mypy'), 'mcp_interop', 'tests']);
  const pytest = await runTool('pytest', ['-q', '-p', 'no:cacheprovider', 'tests']);
  const checks = [
    `    ${mypy.code === 0 ? 'ok  ' : 'FAIL'} mypy --strict: ${mypy.out.trim().split('\n').pop() ?? ''}`,
    `    ${pytest.code === 0 ? 'ok  ' : 'FAIL'} pytest: ${pytest.out.trim().split('\n').pop() ?? ''}`,
  ];
  if (mypy.code !== 0) console.log(mypy.out);
  if (pytest.code !== 0) console.log(pytest.out);
  record('python-code mypy+pytest', checks);
}

/** Stops every child still running (on a signal or an error). */
async function stopAll(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child)));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stopAll().then(() => process.exit(130)));
}

let env: PythonEnv;
try {
  env = ensurePythonEnv(CACHE);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
try {
  await checkPythonCode(env);
  await pythonAgainstUs(env);
  await pythonTraceContext(env);
  await usAgainstPythonDesk(env);
  await usAgainstPythonProbes(env);
} catch (error) {
  console.error(`interop stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  results.push({ line: 'interop stopped', failed: 1 });
} finally {
  await stopAll();
}
const failed = results.filter((result) => result.failed > 0).length;
console.log(`interop: ${results.length - failed} of ${results.length} runs green`);
process.exitCode = failed > 0 ? 1 : 0;
