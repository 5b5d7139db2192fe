/**
 * A raw HTTP load generator: N concurrent workers on keep-alive loopback connections, each
 * running logical calls (one or more canned JSON-RPC POSTs) back to back until a deadline.
 * Far cheaper per request than an SDK client, so the server, not the client, sets the pace.
 */
import { Agent, request } from 'node:http';

import { percentile } from './stats.js';

/** One HTTP response, read in full. */
export interface Reply {
  readonly status: number;
  readonly body: string;
}

/** Sends one POST on the run's connection pool. */
export type Post = (body: string, headers: Readonly<Record<string, string>>) => Promise<Reply>;

/** A logical call: one or more POSTs; resolves `true` when the call produced what it should. */
export type Scenario = (post: Post) => Promise<boolean>;

/** What a run measured. */
export interface LoadResult {
  readonly concurrency: number;
  readonly seconds: number;
  /** Logical calls that completed correctly. */
  readonly calls: number;
  /** Logical calls that failed (bad status, wrong result, socket error). */
  readonly errors: number;
  readonly callsPerSecond: number;
  /** Latency of one logical call, milliseconds. */
  readonly p50: number;
  readonly p99: number;
}

const REQUEST_TIMEOUT_MS = 10_000;

function poster(url: URL, agent: Agent): Post {
  return (body, headers) =>
    new Promise<Reply>((resolve, reject) => {
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('request timed out')));
      req.on('error', reject);
      req.end(body);
    });
}

/** Runs `scenario` on `concurrency` workers for `durationMs` (calls in flight at the deadline finish and count). */
export async function runLoad(
  url: URL,
  scenario: Scenario,
  concurrency: number,
  durationMs: number,
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const post = poster(url, agent);
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const began = performance.now();
      let ok: boolean;
      try {
        ok = await scenario(post);
      } catch {
        ok = false;
      }
      if (ok) latencies.push(performance.now() - began);
      else errors++;
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    concurrency,
    seconds,
    calls: latencies.length,
    errors,
    callsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}

/** Workers of the first warm-up of a server and call. */
const WARMUP_CLIENTS = 8;

/**
 * Readies one server for `scenario` before its first measured level: one call that must complete
 * (else throws `failure`), then `durationMs` of load on 8 workers. A fresh Node server takes
 * seconds of load to reach its steady rate (V8 optimizes the hot path as it runs), and one client
 * alone gets there slowest, so every suite warms each side this way, the same for both.
 */
export async function warmUp(url: URL, scenario: Scenario, durationMs: number, failure: string): Promise<void> {
  const check = await runLoad(url, scenario, 1, 1);
  if (check.errors > 0 || check.calls === 0) throw new Error(failure);
  await runLoad(url, scenario, WARMUP_CLIENTS, durationMs);
}
