/**
 * 3. Sealing: mcp-resolve's sealer (AES-256-GCM, bound to request, audience and principal,
 * single-use) against the SDK's signed codec (`createRequestStateCodec`, HMAC-SHA256 with a bind
 * tag), for a small state and a 16 KiB state: µs per operation and bytes on the wire.
 */
import { randomBytes } from 'node:crypto';

import type { ServerContext } from '@modelcontextprotocol/server';
import { createRequestStateCodec } from '@modelcontextprotocol/server';
import canonicalize from 'canonicalize';

import type { RequestBinding } from '../../src/state/binding.js';
import { createSealer } from '../../src/state/sealer.js';
import { webPrimitives } from '../../src/state/primitives.js';
import type { Paired, SideTimes } from '../lib/alternate.js';
import { alternate } from '../lib/alternate.js';
import type { Benchmark, Json, TargetCheck } from '../lib/registry.js';
import { fmt, fmtRatio, fmtSummary } from '../lib/stats.js';

type State = Readonly<Record<string, Json>>;

const DIGEST = 'q3Jb0m8wS2kD7YfTn1vXcR4uHa9LzPeW6gKiO5sEtMA';

/** The shape of real progress: a recorded answer and an asked question (about 200 bytes of JSON). */
const SMALL: State = {
  v: 1,
  a: { scope: [DIGEST, { action: 'accept', content: { full: false, sku: 'canvas-tote' } }] },
  q: { restock: DIGEST, note: DIGEST },
};

/** A 16 KiB state: the same shape plus an incompressible blob, 16,384 bytes of JSON in all. */
function largeState(): State {
  const base = JSON.stringify({ ...SMALL, blob: '' }).length;
  return {
    ...SMALL,
    blob: randomBytes(16_384)
      .toString('base64url')
      .slice(0, 16_384 - base),
  };
}

const BINDING: RequestBinding = {
  method: 'tools/call',
  target: 'refund_order',
  arguments: { order_id: 'ORD-7002', reason: 'arrived broken' },
  principal: JSON.stringify(['client-1', null, null]),
};

/** The same binding for the SDK codec: method, tool, canonical arguments and principal, recomputed per call as mcp-resolve does. */
const bindValue = () =>
  `${BINDING.method}\0${BINDING.target}\0${canonicalize(BINDING.arguments) ?? ''}\0${BINDING.principal ?? ''}`;

/** The codec's `bind` ignores the context here (the binding is fixed); `mint` still requires one. */
const NO_CONTEXT = {} as ServerContext;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const json = (side: SideTimes): Json => ({ wall: { ...side.wall }, cpu: { ...side.cpu } });

const b64Length = (bytes: number) => Math.ceil((bytes * 4) / 3);

export const sealing: Benchmark = {
  id: 'sealing',
  title: '3. Sealing',
  async run(context) {
    const sealer = createSealer('bench', {});
    // The same token format through Web Crypto (what Workers and every non-Node runtime use), side by side.
    const webSealer = createSealer('bench', { primitives: webPrimitives });
    const primitivesRows: string[][] = [];
    const codec = createRequestStateCodec<State>({ key: randomBytes(32), bind: bindValue });
    const rows: string[][] = [];
    const bytesRows: string[][] = [];
    const targets: TargetCheck[] = [];
    const data: Json[] = [];
    const states: ReadonlyArray<readonly [string, State]> = [
      ['small', SMALL],
      ['16 KiB', largeState()],
    ];
    for (const [label, state] of states) {
      const plaintext = encoder.encode(JSON.stringify(state)).length;
      // A fresh binding per operation, as each round builds its own: a round opens and seals with one
      // binding object, so its arguments are canonicalised once per round trip, never zero times.
      const sealState = (binding: RequestBinding = { ...BINDING }) =>
        sealer.seal(encoder.encode(JSON.stringify(state)), binding);
      const mintState = () => codec.mint(state, NO_CONTEXT);
      const libRoundTrip = async () => {
        const binding = { ...BINDING };
        return JSON.parse(decoder.decode(await sealer.open(await sealState(binding), binding))) as unknown;
      };
      const sdkRoundTrip = async () => codec.verify(await mintState(), NO_CONTEXT);
      const webRoundTrip = async () => {
        const binding = { ...BINDING };
        const token = await webSealer.seal(encoder.encode(JSON.stringify(state)), binding);
        return JSON.parse(decoder.decode(await webSealer.open(token, binding))) as unknown;
      };

      const ours = await sealState();
      const theirs = await mintState();
      const back = JSON.stringify(JSON.parse(decoder.decode(await sealer.open(ours, BINDING))));
      if (
        back !== JSON.stringify(state) ||
        JSON.stringify(await codec.verify(theirs, NO_CONTEXT)) !== JSON.stringify(state)
      ) {
        throw new Error(`sealing ${label}: a round trip did not return the state`);
      }

      const small = label === 'small';
      const plan = small
        ? context.pick({ warmup: 3_000, runs: 15, batch: 500 }, { warmup: 300, runs: 3, batch: 100 })
        : context.pick({ warmup: 500, runs: 15, batch: 100 }, { warmup: 50, runs: 3, batch: 20 });
      const roundTrip = await alternate(libRoundTrip, sdkRoundTrip, plan);
      const sealOnly = await alternate(sealState, mintState, plan);
      const byPrimitives = await alternate(libRoundTrip, webRoundTrip, plan);
      context.log(`  ${label}: seal+open ${fmtSummary(roundTrip.a.wall)} µs vs ${fmtSummary(roundTrip.b.wall)} µs`);
      context.log(
        `  ${label}: seal+open node:crypto ${fmtSummary(byPrimitives.a.wall)} µs vs Web Crypto ${fmtSummary(byPrimitives.b.wall)} µs`,
      );
      primitivesRows.push([
        `${label} (${plaintext} B)`,
        fmtSummary(byPrimitives.a.wall),
        fmtSummary(byPrimitives.b.wall),
        fmtRatio(byPrimitives.ratio),
        `${fmt(byPrimitives.a.cpu.median)} / ${fmt(byPrimitives.b.cpu.median)}`,
      ]);

      const row = (operation: string, paired: Paired) => [
        `${label} (${plaintext} B)`,
        operation,
        fmtSummary(paired.a.wall),
        fmtSummary(paired.b.wall),
        fmtRatio(paired.ratio),
        `${fmt(paired.a.cpu.median)} / ${fmt(paired.b.cpu.median)}`,
        fmtRatio(paired.cpuRatio),
      ];
      rows.push(row('seal + open', roundTrip), row('seal only', sealOnly));
      const overOurs = ours.length - b64Length(plaintext);
      const overTheirs = theirs.length - b64Length(plaintext);
      bytesRows.push([
        `${label} (${plaintext} B)`,
        String(plaintext),
        String(b64Length(plaintext)),
        `${ours.length} (+${overOurs})`,
        `${theirs.length} (+${overTheirs})`,
      ]);
      if (small) {
        const met = roundTrip.a.wall.median <= 25;
        targets.push(
          {
            what: 'sealing, small state, seal + open',
            target: '≤ 25 µs',
            measured: `${roundTrip.a.wall.median.toFixed(1)} µs (CPU ${roundTrip.a.cpu.median.toFixed(1)} µs)`,
            met,
          },
          {
            what: 'sealing, token overhead on the wire',
            target: '≤ 64 bytes',
            measured: `${overOurs} bytes over base64url(state); ${Buffer.from(ours, 'base64url').length - plaintext} binary`,
            met: overOurs <= 64,
          },
        );
      }
      data.push({
        state: label,
        plaintextBytes: plaintext,
        mcpResolve: { tokenChars: ours.length, roundTripUs: json(roundTrip.a), sealUs: json(sealOnly.a) },
        mcpResolveWebCrypto: { roundTripUs: json(byPrimitives.b), versusNodeRoundTripUs: json(byPrimitives.a) },
        sdkCodec: { tokenChars: theirs.length, roundTripUs: json(roundTrip.b), sealUs: json(sealOnly.b) },
      });
    }
    return {
      tables: [
        {
          columns: [
            'state',
            'operation',
            'mcp-resolve µs',
            'SDK signed codec µs',
            'ratio (wall)',
            'CPU µs (mcp-resolve / codec)',
            'ratio (CPU)',
          ],
          rows,
        },
        {
          caption:
            'The same token format on its two primitives (seal + open, alternated): synchronous `node:crypto`, chosen on Node, and Web Crypto (`crypto.subtle` AES-GCM + `@noble/hashes`), used where `node:crypto` is absent (Workers):',
          columns: ['state', 'node:crypto µs', 'Web Crypto µs', 'ratio (wall)', 'CPU µs (node / web)'],
          rows: primitivesRows,
        },
        {
          caption: 'Bytes on the wire (`requestState` is a JSON string; both tokens are base64url text):',
          columns: [
            'state',
            'plaintext JSON bytes',
            'base64url(plaintext) chars',
            'mcp-resolve token chars (over base64url)',
            'SDK codec token chars (over base64url)',
          ],
          rows: bytesRows,
        },
      ],
      notes: [
        'Per operation, state object in and out: mcp-resolve serialises to JSON, seals the bytes, opens and parses; the codec mints and verifies the object. Both bind the token to method, tool, canonical arguments and principal (the codec through its `bind` tag); mcp-resolve also encrypts, binds the audience, and consumes each token once (in-memory replay guard on, its default). The codec is signed only (the client can read the state) and reusable until it expires.',
        'mcp-resolve seals with synchronous `node:crypto` on Node (obtained through `process.getBuiltinModule`, so the root entry stays runtime-neutral) and with Web Crypto where that is absent; both write the same bytes. The codec uses WebCrypto, whose every call is a thread-pool round trip (slower under load). Batches alternate mcp-resolve / codec after warm-up. CPU counts every thread of the process (the V8 garbage collector, the crypto thread pool), so it can exceed wall time.',
        'Token overhead: a sealed token is base64url(48-byte header and tag + plaintext; 3 of those bytes are 1-byte mismatch hints and 6 a header proof so the log names a mismatch only when it is proven); the target is judged on the characters it adds over base64url(plaintext), the smallest text any opaque encoding of the state would take.',
      ],
      targets,
      data,
    };
  },
};
