/**
 * 6. Held state: where a suspended call's progress lives between rounds. Option H parks the
 * handler's frame in the server's memory (measured: heap per parked call, with thousands parked,
 * in a child process started with `--expose-gc`); option J carries a sealed journal on the wire
 * and holds nothing (measured: journal bytes and token length after each round of a 5-step,
 * 3-question handler, and the same heap probe as a control).
 */
import { z } from 'zod';

import type { SuspendInfo } from 'mcp-resolve/mrtr';
import { createContinuationStore } from 'mcp-resolve/mrtr';

import { TOKEN_OVERHEAD_BYTES } from '../../src/state/token.js';
import {
  answerRefund,
  journaledRefundServer,
  suspendingRefundServer,
  REFUND_ARGS,
  REFUND_RESULT,
  REFUND_SUSPENSIONS,
  REFUND_TOOL,
} from '../fixtures/stepHandlers.js';
import { runProbe } from '../lib/processes.js';
import type { RawResult } from '../lib/rawPeer.js';
import { connectRawPeer, traceModernCall } from '../lib/rawPeer.js';
import type { Benchmark, Json } from '../lib/registry.js';
import type { Summary } from '../lib/stats.js';
import { fmt, fmtSummary, summarize } from '../lib/stats.js';

/** What bench/probes/parked.ts prints. */
const ProbeOutput = z.object({
  node: z.string(),
  calls: z.number().int().positive(),
  warmup: z.number().int().positive(),
  cases: z.array(
    z.object({
      id: z.string(),
      option: z.enum(['H', 'J']),
      label: z.string(),
      rounds: z.number().int().positive(),
      pending: z.number().int().positive(),
      tokenChars: z.number().int().nonnegative(),
      runs: z.array(z.object({ heapBytes: z.number(), externalBytes: z.number(), seconds: z.number() })).min(1),
    }),
  ),
});

type ProbeCase = z.infer<typeof ProbeOutput>['cases'][number];

/** The plaintext of option H's `requestState`: `{"c":"<uuid>"}`. */
const CONTINUATION_ID_BYTES = JSON.stringify({ c: '00000000-0000-0000-0000-000000000000' }).length;

/** The full run parks the issue's 10,000 calls; the smoke run 1,000. */
const FULL_CALLS = 10_000;

const textOf = (result: RawResult) => {
  const content = result['content'];
  return Array.isArray(content) ? JSON.stringify(content) : '';
};

/** The sealed token a plaintext of `bytes` becomes on the wire (base64url of header, tag and plaintext). */
const tokenChars = (bytes: number) => Math.ceil(((bytes + TOKEN_OVERHEAD_BYTES) * 4) / 3);

/** One call of option J's refund handler: the journal size each suspended round reported, and the tokens it sent. */
async function traceJournal(): Promise<{ readonly sizes: readonly SuspendInfo[]; readonly tokens: readonly number[] }> {
  const sizes: SuspendInfo[] = [];
  const peer = await connectRawPeer(journaledRefundServer((info) => void sizes.push(info)).createServer);
  try {
    const trace = await traceModernCall(peer, REFUND_TOOL, { ...REFUND_ARGS }, answerRefund);
    const tokens = trace.states.map((state) => state.length);
    if (!textOf(trace.result).includes(REFUND_RESULT)) {
      throw new Error(`option J: unexpected result ${JSON.stringify(trace.result)}`);
    }
    if (sizes.length !== REFUND_SUSPENSIONS || tokens.length !== REFUND_SUSPENSIONS) {
      throw new Error(`option J: ${sizes.length} suspended round(s), expected ${REFUND_SUSPENSIONS}`);
    }
    // The wire token is the journal sealed, nothing else: a mismatch means this table measures the wrong thing.
    if (sizes.some((size, index) => tokenChars(size.journalBytes) !== tokens[index])) {
      throw new Error(`option J: tokens ${tokens.join(', ')} are not the sealed journals ${JSON.stringify(sizes)}`);
    }
    return { sizes, tokens };
  } finally {
    await peer.close();
  }
}

/** One call of option H's refund handler: the tokens it sent (its frame waits in the store meanwhile). */
async function traceSuspending(): Promise<readonly number[]> {
  const store = createContinuationStore();
  const peer = await connectRawPeer(suspendingRefundServer(store).createServer);
  try {
    const trace = await traceModernCall(peer, REFUND_TOOL, { ...REFUND_ARGS }, answerRefund);
    if (!textOf(trace.result).includes(REFUND_RESULT)) {
      throw new Error(`option H: unexpected result ${JSON.stringify(trace.result)}`);
    }
    if (trace.states.length !== REFUND_SUSPENSIONS || store.size !== 0) {
      throw new Error(`option H: ${trace.states.length} suspended round(s) and ${store.size} frame(s) left`);
    }
    const tokens = trace.states.map((state) => state.length);
    // H's state is a sealed continuation id, `{"c":"<uuid>"}`: the same size every round.
    if (tokens.some((length) => length !== tokenChars(CONTINUATION_ID_BYTES))) {
      throw new Error(`option H: tokens ${tokens.join(', ')} are not sealed continuation ids`);
    }
    return tokens;
  } finally {
    await peer.close();
  }
}

const perCall = (probe: ProbeCase, calls: number): Summary => summarize(probe.runs.map((run) => run.heapBytes / calls));

const mib = (bytes: number) => `${fmt(bytes / 2 ** 20)} MiB`;

export const held: Benchmark = {
  id: 'held',
  title: '6. Held state',
  async run(context) {
    const calls = context.pick(FULL_CALLS, 1_000);
    const runs = context.pick(4, 3);
    const warmup = context.pick(200, 30);

    const journal = await traceJournal();
    const suspendingTokens = await traceSuspending();
    context.log(
      `  option J journal: ${journal.sizes.map((size) => `${size.journalBytes} B`).join(', ')} (tokens ${journal.tokens.join(', ')} chars); option H tokens ${suspendingTokens.join(', ')} chars`,
    );

    const stdout = await runProbe(
      'bench/probes/parked.ts',
      ['--calls', String(calls), '--runs', String(runs), '--warmup', String(warmup)],
      { nodeFlags: ['--expose-gc'], log: (line) => context.log(line) },
    );
    const probe = ProbeOutput.parse(JSON.parse(stdout));
    const find = (id: string): ProbeCase => {
      const found = probe.cases.find((test) => test.id === id);
      if (found === undefined) throw new Error(`the probe did not measure ${id}`);
      return found;
    };

    const quick = calls !== FULL_CALLS;
    const parked = quick ? `${calls.toLocaleString('en-US')} (quick run)` : calls.toLocaleString('en-US');
    const memoryRows = probe.cases.map((test) => {
      const bytes = perCall(test, calls);
      const wire =
        test.option === 'H'
          ? `${test.tokenChars} chars (continuation id)`
          : `${test.tokenChars} chars (journal ${journal.sizes[test.rounds - 1]?.journalBytes ?? '?'} B)`;
      return [
        `${test.option}${test.option === 'J' ? ' (control)' : ''}`,
        test.label,
        String(test.pending),
        parked,
        fmtSummary(bytes),
        `${fmt(bytes.min)}–${fmt(bytes.max)}`,
        mib(bytes.median * calls),
        wire,
      ];
    });

    const hRound = (round: number) => perCall(find(`h-refund-${round}`), calls);
    const jRound = (round: number) => perCall(find(`j-refund-${round}`), calls);
    const recorded = ['steps `load`, `audit`; asks scope', '+ scope answer, step `quote`; asks restock and note'];
    const roundRows = journal.sizes.map((size, index) => {
      const round = index + 1;
      return [
        `${round} → input_required`,
        recorded[index] ?? '',
        `${size.journalBytes} B`,
        `${journal.tokens[index] ?? 0} chars`,
        `${fmt(jRound(round).median)} B (noise)`,
        `${suspendingTokens[index] ?? 0} chars`,
        '0 B',
        `${fmt(hRound(round).median)} B`,
      ];
    });
    const finalToken = journal.tokens[journal.tokens.length - 1] ?? 0;
    roundRows.push([
      `${journal.sizes.length + 1} → result`,
      '+ restock and note answers, steps `refund`, `notify`',
      '— (none returned)',
      `final token, ${finalToken} chars, echoed`,
      '0 B',
      `${suspendingTokens[suspendingTokens.length - 1] ?? 0} chars echoed`,
      '0 B',
      '0 B (frame released)',
    ]);

    const data: Json = {
      calls,
      runs,
      warmup,
      childNode: probe.node,
      parked: probe.cases.map((test) => ({
        option: test.option,
        handler: test.label,
        id: test.id,
        roundsDriven: test.rounds,
        questionsPending: test.pending,
        requestStateChars: test.tokenChars,
        heapBytesPerCall: { ...perCall(test, calls) },
        runs: test.runs.map((run) => ({ ...run })),
      })),
      journal: {
        handler: '5 steps, 3 questions (one, then two at once)',
        journalBytesPerRound: journal.sizes.map((size) => size.journalBytes),
        questionsPerRound: journal.sizes.map((size) => size.questions),
        requestStateCharsPerRound: [...journal.tokens],
        finalTokenChars: finalToken,
      },
      suspending: { requestStateCharsPerRound: [...suspendingTokens], journalBytes: 0 },
    };
    for (const test of probe.cases) {
      context.log(`  ${test.id}: ${fmtSummary(perCall(test, calls))} B per suspended call (${calls} calls)`);
    }

    return {
      tables: [
        {
          caption: `Server memory per suspended call: heap after forced GC with ${calls.toLocaleString('en-US')} calls suspended at once${quick ? ` (quick run; a full run suspends ${FULL_CALLS.toLocaleString('en-US')})` : ''}, median (interquartile range) over ${runs} runs:`,
          columns: [
            'option',
            'handler, left suspended',
            'questions pending',
            'suspended calls',
            'heap per suspended call, bytes',
            'range',
            'heap for all of them',
            '`requestState` on the wire',
          ],
          rows: memoryRows,
        },
        {
          caption:
            'The 5-step, 3-question handler round by round: what option J carries on the wire against what option H holds in memory (bytes and characters are exact; memory is the median of the table above):',
          columns: [
            'round',
            'progress so far',
            'J: journal (before sealing)',
            'J: `requestState` (sealed)',
            'J: server memory per call',
            'H: `requestState` (sealed)',
            'H: journal',
            'H: server memory per call',
          ],
          rows: roundRows,
        },
      ],
      notes: [
        `Memory: a child process (\`node --expose-gc\`, \`bench/probes/parked.ts\`) builds a fresh server per run once the previous run's has been collected (for H, a continuation store with \`maxEntries\` ${calls.toLocaleString('en-US')} and the default 10-minute TTL), makes ${warmup} complete calls, reads the heap, then leaves ${calls.toLocaleString('en-US')} calls suspended — a bare in-memory peer sends their first round(s) and never answers — and reads it again; each reading follows two forced collections. Per call = heap delta / calls. The store's size is checked (H holds every call, J none). A first pass of every case with a tenth of the calls is not recorded.${!quick ? '' : ` Quick run: ${calls.toLocaleString('en-US')} calls instead of ${FULL_CALLS.toLocaleString('en-US')}, so the probe's fixed offset weighs more per call.`}`,
        "What H holds is mostly the first round's request context, which the suspended handler keeps (the SDK context's functions, its abort signal, the copied `ctx`), plus the frame, its round gate and the pending promises; the handler's own locals are a small part. A frame parked at its second round also holds that round's gate and two waiting questions.",
        "J's rows are the control: J keeps nothing between rounds, so its figure is the probe's noise floor (JIT code and caches, a fixed few hundred KiB spread over the calls).",
        "The replay guard is off in the probe: with it on (the default), every round after the first also leaves its consumed token id in the process's replay store until the token expires (about 70 bytes), for H and J alike.",
        `On the wire: H's \`requestState\` is a sealed continuation id (\`{"c":"<uuid>"}\`, ${CONTINUATION_ID_BYTES} bytes of plaintext), the same ${suspendingTokens[0] ?? 0} characters every round whatever the handler has done; J's is the sealed journal, ${TOKEN_OVERHEAD_BYTES} bytes of token overhead plus the journal, in base64url, checked against the size \`onSuspend\` reports. Both ride to the client and back on every retry.`,
      ],
      targets: [],
      data,
    };
  },
};
