/**
 * A SELF-CHECKING CLIENT (test harness, not an example to copy): it plays the person from a script
 * and checks every result against the story's table; `test/stories/` runs it. Learn the library
 * from the server files; a real client is any MCP client (the SDK's `Client`, the MCP Inspector).
 *
 * The mrtr story's client, on 2026-07-28 over stdio and HTTP: the SDK client's automatic loop
 * (one `callTool`, the question answered through the elicitation handler), then a manual loop, one
 * `tools/call` leg at a time, that reads the raw `input_required`, checks the state is opaque,
 * tampers with it, and finishes with the genuine token. On 2025-11-25 (`--legacy`) only the
 * automatic call runs: the SDK turns the tool's `input_required` into a push request.
 *
 *   npx tsx examples/stories/mrtr/client.ts              (npm run story:mrtr) stdio and HTTP, both eras
 *   npx tsx examples/stories/mrtr/client.ts --http URL   against a server someone started (add --legacy)
 *
 * Each run ends with `mrtr <stdio|http> <2026-07-28|2025-11-25>: N passed, M failed`; exit code 1
 * when any run has a failure.
 */
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';

import type { Client, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { isCallToolResult, isInputRequiredResult, ProtocolError } from '@modelcontextprotocol/client';
import type { Era } from 'mcp-resolve';

import type { StoryTransport } from '../lib/serverProcess.js';
import { connectStory } from '../lib/serverProcess.js';
import type { StoryReport } from '../lib/tally.js';
import { createTally } from '../lib/tally.js';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

/** The plaintext the server writes in `requestState`; it must never be readable on the wire. */
const PLAINTEXT_STATE = 'awaiting-confirm';

/** The one error every refused `requestState` gets (request-state.md). */
const FROZEN = { code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state' } };

/** What a run proved. */
export type { StoryReport };

/** One manual leg: the raw result (`input_required` or final), or the protocol error that refused it. */
type Leg =
  | { readonly kind: 'input_required'; readonly requestState: string | undefined; readonly inputRequests: unknown }
  | { readonly kind: 'complete'; readonly text: string; readonly isError: boolean }
  | { readonly kind: 'refused'; readonly error: ProtocolError };

/** Sends one `tools/call` leg of `deploy` without letting the client fulfil `input_required`. */
async function leg(client: Client, env: string, extra: Record<string, unknown> = {}): Promise<Leg> {
  try {
    const result: unknown = await client.request(
      { method: 'tools/call', params: { name: 'deploy', arguments: { env }, ...extra } },
      { allowInputRequired: true },
    );
    if (isInputRequiredResult(result)) {
      return { kind: 'input_required', requestState: result.requestState, inputRequests: result.inputRequests };
    }
    if (!isCallToolResult(result)) throw new Error(`deploy returned neither a result nor input_required`);
    const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    return { kind: 'complete', text, isError: result.isError === true };
  } catch (error) {
    if (error instanceof ProtocolError) return { kind: 'refused', error };
    throw error;
  }
}

const describe = (outcome: Leg): string =>
  outcome.kind === 'refused'
    ? `refused: ${outcome.error.code} ${outcome.error.message} ${JSON.stringify(outcome.error.data)}`
    : outcome.kind === 'complete'
      ? `${outcome.isError ? 'error' : 'result'}: ${outcome.text}`
      : `input_required, requestState ${outcome.requestState?.slice(0, 24) ?? '(none)'}…`;

/** Whether `outcome` is the frozen requestState error, code, message and data exactly. */
const isFrozen = (outcome: Leg): boolean =>
  outcome.kind === 'refused' &&
  outcome.error.code === FROZEN.code &&
  outcome.error.message === FROZEN.message &&
  isDeepStrictEqual(outcome.error.data, FROZEN.data);

/** The token with one character changed in its middle (still base64url, wrong bytes). */
function tamper(token: string): string {
  const at = Math.floor(token.length / 2);
  return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
}

/** Whether the form asks for a boolean `confirm`. */
function asksConfirm(params: ElicitRequest['params'] | undefined): boolean {
  if (params === undefined || params.mode === 'url' || !('requestedSchema' in params)) return false;
  const field = params.requestedSchema.properties.confirm as { type?: unknown } | undefined;
  return field?.type === 'boolean';
}

const PROTOCOL: Record<Era, string> = { modern: '2026-07-28', legacy: '2025-11-25' };

/** How one run is set up. */
export interface MrtrRun {
  readonly transport: StoryTransport;
  /** @default 'modern' */
  readonly era?: Era;
  /** An already running server (HTTP only); otherwise the run starts its own. */
  readonly url?: URL | undefined;
  /** Where the conversation is printed. @default console.log */
  readonly log?: (line: string) => void;
}

/** Runs the story once. */
export async function runMrtr(run: MrtrRun): Promise<StoryReport> {
  const { transport, era = 'modern', url } = run;
  const log = run.log ?? ((line: string) => console.log(line));
  const tally = createTally(log);
  const { check } = tally;
  const asked: ElicitRequest['params'][] = [];
  const elicit = (params: ElicitRequest['params']): ElicitResult => {
    asked.push(params);
    log(`    asked: ${params.message}`);
    return { action: 'accept', content: { confirm: true } };
  };
  const connection = await connectStory(SERVER, 'mrtr', transport, { era, elicit, url });
  try {
    const { client, counters } = connection;
    log('[1] deploy production, the client answering by itself (its automatic loop)');
    const deployed = await client.callTool({ name: 'deploy', arguments: { env: 'production' } });
    const text = deployed.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    log(`    result: ${text}`);
    check(!deployed.isError && text === 'deployed to production', 'accepted and confirmed: "deployed to production"');
    check(
      asked.length === 1 && asked[0]?.message === 'Deploy to production?' && asksConfirm(asked[0]),
      'one question, a form with a boolean confirm',
    );
    const [legs, pushes] = era === 'modern' ? [2, 0] : [1, 1];
    check(
      counters.legs['tools/call'] === legs && counters.pushes === pushes,
      `${legs} leg(s), ${pushes} push(es) (saw ${counters.legs['tools/call'] ?? 0}, ${counters.pushes})`,
    );
    // The manual loop is the 2026-07-28 wire; a 2025-11-25 client never sees input_required.
    if (era === 'legacy') return tally.report(`mrtr ${transport} ${PROTOCOL[era]}`);

    log('[2] deploy staging, one leg at a time');
    const first = await leg(client, 'staging');
    log(`    ${describe(first)}`);
    const token = first.kind === 'input_required' ? first.requestState : undefined;
    const requests = first.kind === 'input_required' ? (first.inputRequests as Record<string, unknown>) : {};
    const confirm = requests.confirm as { method?: unknown; params?: ElicitRequest['params'] } | undefined;
    check(
      Object.keys(requests).join() === 'confirm' &&
        confirm?.method === 'elicitation/create' &&
        asksConfirm(confirm.params),
      'input_required asks one question, under the key "confirm"',
    );
    const decoded = token === undefined ? '' : Buffer.from(token, 'base64url').toString('latin1');
    check(
      token !== undefined && !token.includes(PLAINTEXT_STATE) && !decoded.includes(PLAINTEXT_STATE),
      `the requestState is opaque: not "${PLAINTEXT_STATE}", even base64url-decoded`,
    );
    const declined = { confirm: { action: 'decline' } };

    log('[3] the same answer with the token tampered (one character changed)');
    const tampered = await leg(client, 'staging', {
      inputResponses: declined,
      requestState: tamper(token ?? ''),
    });
    log(`    ${describe(tampered)}`);
    check(isFrozen(tampered), `refused: ${FROZEN.code} "${FROZEN.message}", data ${JSON.stringify(FROZEN.data)}`);

    log('[4] the genuine token, declining');
    const second = await leg(client, 'staging', { inputResponses: declined, requestState: token });
    log(`    ${describe(second)}`);
    check(
      second.kind === 'complete' && !second.isError && second.text === 'deployment to staging cancelled',
      'declined: "deployment to staging cancelled"',
    );

    log('[5] the genuine token again (a replay)');
    const replayed = await leg(client, 'staging', { inputResponses: declined, requestState: token });
    log(`    ${describe(replayed)}`);
    check(isFrozen(replayed), 'a replayed token gets the same frozen error (tokens are single-use)');

    log('[6] an answer with no requestState at all');
    const stateless = await leg(client, 'staging', {
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    log(`    ${describe(stateless)}`);
    check(
      stateless.kind === 'complete' &&
        stateless.isError &&
        stateless.text.startsWith('deploy: this answer did not come'),
      'the tool refuses an answer without the state of the round that asked',
    );
  } catch (error) {
    tally.fail(error);
  } finally {
    await connection.close();
  }
  return tally.report(`mrtr ${transport} ${PROTOCOL[era]}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    options: { http: { type: 'boolean', default: false }, legacy: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const url = positionals[0] === undefined ? undefined : new URL(positionals[0]);
  const single = url !== undefined || values.http || values.legacy;
  const runs: Array<{ transport: StoryTransport; era: Era }> = single
    ? [{ transport: values.http || url !== undefined ? 'http' : 'stdio', era: values.legacy ? 'legacy' : 'modern' }]
    : (['stdio', 'http'] as const).flatMap((transport) =>
        (['modern', 'legacy'] as const).map((era) => ({ transport, era })),
      );
  let failed = 0;
  for (const run of runs) failed += (await runMrtr({ ...run, url })).failed;
  process.exitCode = failed > 0 ? 1 : 0;
}
