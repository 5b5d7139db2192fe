/**
 * 1. Per-call overhead: the story's refund desk (mcp-resolve resolvers) against the same tool
 * hand-written on the raw SDK, over the same transport, on both eras — called by a real SDK
 * client (in memory and over HTTP: what a user sees) and by a bare peer (in memory: the server's
 * share alone, without the SDK client's validation cost diluting the ratio).
 */
import { isDeepStrictEqual } from 'node:util';

import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { Era, ServerSource } from 'mcp-resolve';
import { connectHttp, connectInProcess } from 'mcp-resolve/testing';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { serveHttp } from '../../src/node/index.js';
import type { DeskCall } from '../fixtures/deskCalls.js';
import { answerDesk, answerDeskPush, DESK_ANSWERS, QUIET_CALL, THREE_LEG_CALL } from '../fixtures/deskCalls.js';
import { createRawDesk } from '../fixtures/rawDesk.js';
import type { Plan } from '../lib/alternate.js';
import { alternate } from '../lib/alternate.js';
import type { RawResult } from '../lib/rawPeer.js';
import { connectRawPeer, traceModernCall } from '../lib/rawPeer.js';
import type { Benchmark, BenchContext, Json, TargetCheck } from '../lib/registry.js';
import { fmt, fmtRatio, fmtSummary } from '../lib/stats.js';

export type Transport = 'in-memory' | 'http' | 'in-memory, bare client';

const TRANSPORTS: readonly Transport[] = ['in-memory', 'http', 'in-memory, bare client'];

export interface Scenario {
  readonly id: '1a' | '1b';
  readonly label: string;
  readonly call: DeskCall;
  /** The target for the ratio mcp-resolve / raw SDK. */
  readonly target: number;
}

export const SCENARIOS: readonly Scenario[] = [
  { id: '1a', label: 'resolvers ask nothing (ORD-7001)', call: QUIET_CALL, target: 1.05 },
  { id: '1b', label: '3-leg call, 2 questions (ORD-7002)', call: THREE_LEG_CALL, target: 1.1 },
];

/** What one call returned and what it took, as the side's client saw it. */
interface Observed {
  readonly result: unknown;
  readonly legs: number;
  readonly pushes: number;
}

/** A connected side: one client (SDK or bare) on one server. */
export interface Side {
  /** Makes one call, as fast as the client allows. */
  call(call: DeskCall): Promise<unknown>;
  /** Makes one call and reports what it took. */
  observe(call: DeskCall): Promise<Observed>;
  close(): Promise<void>;
}

async function openSdkSide(source: ServerSource, transport: 'in-memory' | 'http', era: Era): Promise<Side> {
  const server = transport === 'http' ? await serveHttp(source, { port: 0 }) : undefined;
  const connection = await (
    server === undefined
      ? connectInProcess(source, { era, elicit: answerDesk })
      : connectHttp(server.url, { era, elicit: answerDesk })
  ).catch(async (error: unknown) => {
    await server?.close();
    throw error;
  });
  const { client, counters } = connection;
  const call = (desk: DeskCall) => client.callTool({ name: 'refund_order', arguments: { ...desk.arguments } });
  return {
    call,
    async observe(desk) {
      counters.reset();
      const result = await call(desk);
      return { result: result.structuredContent, legs: counters.legs['tools/call'] ?? 0, pushes: counters.pushes };
    },
    async close() {
      await connection.close();
      await server?.close();
    },
  };
}

async function openBareSide(factory: McpServerFactory, era: Era): Promise<Side> {
  let pushes = 0;
  const peer = await connectRawPeer(factory, {
    era,
    onPush: (request) => {
      pushes++;
      return { ...answerDeskPush(request.params) };
    },
  });
  const answer = (key: string) => (key === 'scope' ? DESK_ANSWERS.scope : DESK_ANSWERS.restock);
  const structured = (result: RawResult) => result['structuredContent'];
  return {
    call: (desk) =>
      era === 'modern'
        ? traceModernCall(peer, 'refund_order', { ...desk.arguments }, answer)
        : peer.request('tools/call', { name: 'refund_order', arguments: { ...desk.arguments } }),
    async observe(desk) {
      pushes = 0;
      if (era === 'modern') {
        const trace = await traceModernCall(peer, 'refund_order', { ...desk.arguments }, answer);
        return { result: structured(trace.result), legs: trace.states.length + 1, pushes };
      }
      const result = await peer.request('tools/call', { name: 'refund_order', arguments: { ...desk.arguments } });
      return { result: structured(result), legs: 1, pushes };
    },
    close: () => peer.close(),
  };
}

/**
 * Connects one side of a comparison: a real SDK client (in memory or over HTTP) or the bare peer.
 * A `McpResolveServer` is hosted as itself, so HTTP hosting reuses its instances as it would in use.
 */
export function openSide(source: ServerSource, transport: Transport, era: Era): Promise<Side> {
  if (transport !== 'in-memory, bare client') return openSdkSide(source, transport, era);
  return openBareSide(typeof source === 'function' ? source : source.createServer, era);
}

/** Checks one call's receipt, legs and pushes: a benchmark of a broken path is void. */
export async function check(side: Side, desk: DeskCall, era: Era, name: string): Promise<void> {
  const seen = await side.observe(desk);
  const legs = era === 'modern' ? desk.modernLegs : 1;
  const pushes = era === 'modern' ? 0 : desk.questions;
  if (!isDeepStrictEqual(seen.result, desk.receipt))
    throw new Error(`${name}: unexpected result ${JSON.stringify(seen.result)}`);
  if (seen.legs !== legs || seen.pushes !== pushes) {
    throw new Error(`${name}: took ${seen.legs} leg(s) and ${seen.pushes} push(es), expected ${legs} and ${pushes}`);
  }
}

export function planFor(context: BenchContext, transport: Transport): Plan {
  // Many short pairs: a pause (a garbage collection, a burst of contention) then spoils the few
  // pairs it lands in, not the median. Batches of 50 in-memory calls or 20 HTTP calls were long
  // enough for most of them to catch one, which made the per-pair ratios bimodal.
  return transport === 'http'
    ? context.pick({ warmup: 300, runs: 400, batch: 2 }, { warmup: 10, runs: 4, batch: 8 })
    : context.pick({ warmup: 1_500, runs: 300, batch: 10 }, { warmup: 30, runs: 4, batch: 20 });
}

export const overhead: Benchmark = {
  id: 'overhead',
  title: '1. Per-call overhead',
  async run(context) {
    const library = createRefundDesk();
    const raw = createRawDesk();
    const rows: string[][] = [];
    const targets: TargetCheck[] = [];
    const data: Json[] = [];
    for (const transport of TRANSPORTS) {
      for (const era of ['modern', 'legacy'] as const) {
        const lib = await openSide(library, transport, era);
        const sdk = await openSide(raw, transport, era);
        try {
          for (const scenario of SCENARIOS) {
            const name = `${transport} ${era} ${scenario.id}`;
            await check(lib, scenario.call, era, `mcp-resolve ${name}`);
            await check(sdk, scenario.call, era, `raw SDK ${name}`);
            const paired = await alternate(
              () => lib.call(scenario.call),
              () => sdk.call(scenario.call),
              planFor(context, transport),
            );
            context.log(
              `  ${name}: ${fmtSummary(paired.a.wall)} µs vs ${fmtSummary(paired.b.wall)} µs → ${fmtRatio(paired.ratio)} wall, ${fmtRatio(paired.cpuRatio)} CPU`,
            );
            const met = paired.ratio.median <= scenario.target;
            rows.push([
              transport,
              era,
              `${scenario.id} ${scenario.label}`,
              fmtSummary(paired.a.wall),
              fmtSummary(paired.b.wall),
              fmtRatio(paired.ratio),
              `${fmt(paired.a.cpu.median)} / ${fmt(paired.b.cpu.median)}`,
              fmtRatio(paired.cpuRatio),
              `≤ ${scenario.target.toFixed(2)} ${met ? '✓' : '✗'}`,
            ]);
            targets.push({
              what: `overhead ${scenario.id}, ${transport}, ${era}`,
              target: `≤ ${scenario.target.toFixed(2)}×`,
              measured: `${paired.ratio.median.toFixed(2)}× (CPU ${paired.cpuRatio.median.toFixed(2)}×)`,
              met,
            });
            data.push({
              transport,
              era,
              scenario: scenario.id,
              mcpResolveUs: { wall: { ...paired.a.wall }, cpu: { ...paired.a.cpu } },
              rawSdkUs: { wall: { ...paired.b.wall }, cpu: { ...paired.b.cpu } },
              ratio: { wall: { ...paired.ratio }, cpu: { ...paired.cpuRatio } },
            });
          }
        } finally {
          await lib.close();
          await sdk.close();
        }
      }
    }
    return {
      tables: [
        {
          columns: [
            'transport',
            'era',
            'call',
            'mcp-resolve µs/call',
            'raw SDK µs/call',
            'ratio (wall)',
            'CPU µs/call (mcp-resolve / raw)',
            'ratio (CPU)',
            'target',
          ],
          rows,
        },
      ],
      notes: [
        'One client per side calls `refund_order` sequentially; µs per call is end to end (client, transport and server in one process), including every leg and every answered question. `in-memory` and `http` use a real SDK client (`connectInProcess` / `connectHttp`); `in-memory, bare client` sends the same JSON-RPC messages from a peer that does no validation, so its figures are mostly server time and its ratio is the sharpest view of what mcp-resolve adds.',
        'Each sample is a batch of calls; batches alternate A B / B A after warm-up. Wall figures: median (interquartile range); ratios are medians of per-pair ratios. Targets are judged on the wall ratio. CPU is the user + system time of the process per call (plus the V8 helper threads): a cross-check that time spent descheduled on a shared machine does not inflate.',
        'The raw-SDK side is `bench/fixtures/rawDesk.ts`: `McpServer.registerTool`; on modern, `input_required` rounds with its state signed by the SDK codec (`createRequestStateCodec` with a bind tag; arguments checked on re-entry; signed, not encrypted, not single-use); on legacy, `elicitInput` pushes with schema objects built once. HTTP hosting is the same `serveHttp` for both.',
      ],
      targets,
      data,
    };
  },
};
