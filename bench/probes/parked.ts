/**
 * Section 6's memory probe: how much heap a suspended call holds on the server. For each case it
 * builds a fresh server (and, for option H, a continuation store whose `maxEntries` is the number
 * of calls), warms it up with complete calls, then suspends `--calls` calls — each driven by a bare
 * peer through its first round(s) and never answered — and reads the heap before and after, each
 * time after forced garbage collection. A first pass of every case with a tenth of the calls is not
 * recorded, and each run starts only once the previous run's server has been collected. Option J's cases are the control: it holds nothing
 * between rounds, so its figure is the probe's own noise floor.
 *
 *   node --expose-gc --import tsx bench/probes/parked.ts --calls 10000 --runs 5 --warmup 200 [--cases h-refund-1,…]
 *
 * Prints one JSON object on stdout (see `ProbeOutput` in bench/suites/held.ts); progress on stderr.
 */
import { parseArgs } from 'node:util';

import type { McpResolveServer, McpResolveServerOptions } from 'mcp-resolve';
import type { ContinuationStore } from 'mcp-resolve/mrtr';
import { createContinuationStore } from 'mcp-resolve/mrtr';

import {
  answerRefund,
  journaledRefundServer,
  suspendingMinimalServer,
  suspendingRefundServer,
  MINIMAL_RESULT,
  REFUND_ARGS,
  REFUND_RESULT,
  REFUND_TOOL,
} from '../fixtures/stepHandlers.js';
import { connectRawPeer, suspendModernCall, traceModernCall } from '../lib/rawPeer.js';

interface Case {
  readonly id: string;
  readonly option: 'H' | 'J';
  readonly label: string;
  /** Rounds driven before the call is left suspended (1: only the first round). */
  readonly rounds: number;
  /** Questions pending when it is left. */
  readonly pending: number;
  readonly result: string;
  build(store: ContinuationStore, options: McpResolveServerOptions): McpResolveServer;
}

const CASES: readonly Case[] = [
  {
    id: 'h-minimal-1',
    option: 'H',
    label: 'an audit, then one question',
    rounds: 1,
    pending: 1,
    result: MINIMAL_RESULT,
    build: (store, options) => suspendingMinimalServer(store, options),
  },
  {
    id: 'h-refund-1',
    option: 'H',
    label: '5 steps, 3 questions: after round 1',
    rounds: 1,
    pending: 1,
    result: REFUND_RESULT,
    build: (store, options) => suspendingRefundServer(store, options),
  },
  {
    id: 'h-refund-2',
    option: 'H',
    label: '5 steps, 3 questions: after round 2',
    rounds: 2,
    pending: 2,
    result: REFUND_RESULT,
    build: (store, options) => suspendingRefundServer(store, options),
  },
  {
    id: 'j-refund-1',
    option: 'J',
    label: '5 steps, 3 questions: after round 1',
    rounds: 1,
    pending: 1,
    result: REFUND_RESULT,
    build: (_store, options) => journaledRefundServer(undefined, options),
  },
  {
    id: 'j-refund-2',
    option: 'J',
    label: '5 steps, 3 questions: after round 2',
    rounds: 2,
    pending: 2,
    result: REFUND_RESULT,
    build: (_store, options) => journaledRefundServer(undefined, options),
  },
];

/**
 * The replay guard is off: with it, every round after the first would also leave a consumed token
 * id in the process's replay store (about 70 bytes until the token expires), for H and J alike.
 * The probe measures what the handler shape itself holds.
 */
const SERVER_OPTIONS: McpResolveServerOptions = { requestState: { replayStore: false } };

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '200' },
    cases: { type: 'string' },
  },
});

function count(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer (got ${text})`);
  return value;
}

const calls = count(values.calls, 'calls');
const runs = count(values.runs, 'runs');
const warmup = count(values.warmup, 'warmup');
const wanted = values.cases?.split(',').map((id) => id.trim());
const selected = CASES.filter((test) => wanted === undefined || wanted.includes(test.id));
if (selected.length === 0) throw new Error(`--cases matches none of ${CASES.map((test) => test.id).join(', ')}`);

const exposedGc = globalThis.gc;
if (exposedGc === undefined) throw new Error('bench/probes/parked.ts needs node --expose-gc');
/**
 * A full, synchronous collection. The bare `gc()`: in testing, the options form
 * (`gc({ type: 'major', execution: 'sync' })`) left the previous run's server reachable.
 */
const gc = (): void => exposedGc();

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The previous run's store: its server must be garbage before the next baseline, or its frames would count against that run. */
let previous: WeakRef<ContinuationStore> | undefined;

const COLLECT_TIMEOUT_MS = 5_000;

/**
 * Whether the previous run's store is still reachable. Synchronous on purpose: in the async loop
 * below, a dereferenced store could stay in the suspended frame's registers across the `await`
 * and keep itself alive.
 */
function previousAlive(): boolean {
  return previous?.deref() !== undefined;
}

/** Waits (collecting) until the previous run's store is gone; fails the probe if it stays reachable. */
async function awaitPreviousCollected(collect: () => void): Promise<void> {
  const deadline = performance.now() + COLLECT_TIMEOUT_MS;
  while (previousAlive()) {
    if (performance.now() > deadline) {
      throw new Error(`the previous run's server is still reachable ${COLLECT_TIMEOUT_MS} ms after it closed`);
    }
    await pause(10); // a new job: the WeakRef's keep-alive of this one ends
    collect();
  }
  previous = undefined;
}

/** Heap after the event loop has drained and two full collections. */
async function settledHeap(collect: () => void): Promise<{ readonly heap: number; readonly external: number }> {
  for (let pass = 0; pass < 2; pass++) {
    await tick();
    collect();
  }
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, external: usage.external };
}

interface Run {
  readonly heapBytes: number;
  readonly externalBytes: number;
  readonly seconds: number;
}

async function measure(test: Case, collect: () => void, calls: number): Promise<{ run: Run; tokenChars: number }> {
  await awaitPreviousCollected(collect);
  const store = createContinuationStore({ maxEntries: calls });
  previous = new WeakRef(store);
  const peer = await connectRawPeer(test.build(store, SERVER_OPTIONS).createServer);
  try {
    for (let index = 0; index < warmup; index++) {
      const trace = await traceModernCall(peer, REFUND_TOOL, { ...REFUND_ARGS }, answerRefund);
      const content = trace.result['content'];
      const text = Array.isArray(content) ? JSON.stringify(content) : '';
      if (!text.includes(test.result)) throw new Error(`${test.id}: unexpected result ${JSON.stringify(trace.result)}`);
    }
    if (store.size !== 0) throw new Error(`${test.id}: ${store.size} continuation(s) left after complete calls`);
    let tokenChars = 0;
    const before = await settledHeap(collect);
    const started = performance.now();
    for (let index = 0; index < calls; index++) {
      const result = await suspendModernCall(peer, REFUND_TOOL, { ...REFUND_ARGS }, answerRefund, test.rounds);
      const state = result['requestState'];
      const asked = result['inputRequests'];
      if (typeof state !== 'string' || typeof asked !== 'object' || asked === null) {
        throw new Error(`${test.id}: round ${test.rounds} did not suspend with state: ${JSON.stringify(result)}`);
      }
      if (Object.keys(asked).length !== test.pending) {
        throw new Error(`${test.id}: ${Object.keys(asked).length} question(s) pending, expected ${test.pending}`);
      }
      tokenChars = state.length;
    }
    const seconds = (performance.now() - started) / 1000;
    const after = await settledHeap(collect);
    const held = test.option === 'H' ? calls : 0;
    if (store.size !== held) throw new Error(`${test.id}: the store holds ${store.size} call(s), expected ${held}`);
    return {
      run: { heapBytes: after.heap - before.heap, externalBytes: after.external - before.external, seconds },
      tokenChars,
    };
  } finally {
    await peer.close();
  }
}

interface CaseResult {
  readonly id: string;
  readonly option: 'H' | 'J';
  readonly label: string;
  readonly rounds: number;
  readonly pending: number;
  /** The `requestState` the suspended round sent, in characters. */
  tokenChars: number;
  readonly runs: Run[];
}

const results: CaseResult[] = selected.map((test) => ({
  id: test.id,
  option: test.option,
  label: test.label,
  rounds: test.rounds,
  pending: test.pending,
  tokenChars: 0,
  runs: [],
}));
// One pass of every case, not recorded: the process's own heap settles (lazy compilation, bytecode
// flushing of start-up code) before the first measured run, so that run is not an outlier.
const warmupCalls = Math.max(1, Math.round(calls / 10));
for (const test of selected) await measure(test, gc, warmupCalls);
console.error(`  warm-up pass done (${warmupCalls} calls per case)`);

// Run-major order: every case sees the same drift of the process over time.
for (let run = 0; run < runs; run++) {
  for (const [index, test] of selected.entries()) {
    const { run: measured, tokenChars } = await measure(test, gc, calls);
    const entry = results[index];
    if (entry === undefined) throw new Error('unreachable');
    entry.runs.push(measured);
    entry.tokenChars = tokenChars;
    console.error(
      `  run ${run + 1}/${runs} ${test.id}: ${Math.round(measured.heapBytes / calls)} B per call (${calls} calls, ${measured.seconds.toFixed(1)} s)`,
    );
  }
}
console.log(JSON.stringify({ node: process.version, calls, warmup, cases: results }));
