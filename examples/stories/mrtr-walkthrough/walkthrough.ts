/**
 * The multi-round walk-through: a manual client (it never answers `input_required` by itself)
 * drives the vault's hand-built loop round by round, prints what crosses the wire, and then plays
 * the attacker: it edits the sealed state, replays it, and brings state sealed under a foreign
 * key. Every attack is refused with the one frozen error, and the real reason reaches only the
 * server's log.
 *
 *   npx tsx examples/stories/mrtr-walkthrough/walkthrough.ts      (npm run story:mrtr-walkthrough)
 *
 * Ends with `mrtr-walkthrough 2026-07-28: N passed, M failed`; exit code 1 when M > 0.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import { ProtocolError } from '@modelcontextprotocol/client';
import type { ErrorHook } from 'mcp-resolve';
import type { ManualConnection, LegResult } from 'mcp-resolve/testing';
import { connectManual } from 'mcp-resolve/testing';

import { createVault } from './vault.js';
import type { StoryReport } from '../lib/tally.js';
import { createTally } from '../lib/tally.js';

/** What the walkthrough proved. */
export type WalkthroughReport = StoryReport;

const FROZEN_MESSAGE = 'Invalid or expired requestState';

/** A fresh random 32-byte key, hex: what an operator puts in MCP_REQUEST_STATE_KEYS. */
const newKey = (): string => randomBytes(32).toString('hex');

/** The token with one character changed in its middle (still valid base64url, wrong bytes). */
function tamper(token: string): string {
  const at = Math.floor(token.length / 2);
  const flipped = token[at] === 'A' ? 'B' : 'A';
  return `${token.slice(0, at)}${flipped}${token.slice(at + 1)}`;
}

function describe(outcome: LegResult): string {
  if (outcome.kind === 'complete') {
    const text = outcome.result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    return `complete: ${text}`;
  }
  const questions = Object.entries(outcome.inputRequests).map(([key, request]) =>
    request.method === 'elicitation/create' ? `${key}: "${request.params.message}"` : `${key}: ${request.method}`,
  );
  const state =
    outcome.requestState === undefined ? 'no requestState' : `requestState ${outcome.requestState.slice(0, 24)}…`;
  return `input_required — ${questions.join('; ')} — ${state}`;
}

/** Runs the honest conversation and the three attacks, printing each step. */
export async function runWalkthrough(
  log: (line: string) => void = (line) => console.log(line),
): Promise<WalkthroughReport> {
  const tally = createTally(log);
  const { check } = tally;
  const serverLog: string[] = [];
  const key = newKey();
  const connections: ManualConnection[] = [];
  const toServerLog: ErrorHook = (error) => void serverLog.push(error instanceof Error ? error.message : String(error));
  const connect = async (withKey: string, onerror: ErrorHook = toServerLog) => {
    const connection = await connectManual(() => createVault({ key: withKey, onerror }));
    connections.push(connection);
    return connection;
  };
  /** Sends one leg; a refused leg comes back as the protocol error instead of throwing. */
  const leg = async (
    vault: ManualConnection,
    continuation: Parameters<ManualConnection['round']>[2],
  ): Promise<LegResult | ProtocolError> => {
    try {
      return await vault.round('transfer', { amount_cents: 2500 }, continuation);
    } catch (error) {
      if (error instanceof ProtocolError) return error;
      throw error;
    }
  };
  const refused = (what: string, outcome: LegResult | ProtocolError, reason: string) => {
    const logged = serverLog.splice(0);
    log(
      outcome instanceof ProtocolError
        ? `    client sees: ${outcome.code} ${outcome.message}`
        : `    client sees: ${describe(outcome)}`,
    );
    for (const line of logged) log(`    server log: ${line}`);
    check(
      outcome instanceof ProtocolError && outcome.code === -32602 && outcome.message.includes(FROZEN_MESSAGE),
      `${what}: refused with -32602 ${FROZEN_MESSAGE}`,
    );
    check(
      logged.some((line) => line.endsWith(`: ${reason}`) || line.includes(`: ${reason} (`)),
      `${what}: the server log says why (${reason}), the client is not told`,
    );
  };

  try {
    const vault = await connect(key);

    log('[1] round 1: transfer 2500 cents, no state');
    const first = await leg(vault, {});
    if (first instanceof ProtocolError) throw first;
    log(`    ${describe(first)}`);
    check(first.kind === 'input_required' && 'account' in first.inputRequests, 'round 1 asks which account');
    check(first.kind === 'input_required' && first.requestState === undefined, 'round 1 carries no state yet');

    log('[2] round 2: answer account=savings');
    const second = await leg(vault, {
      inputResponses: { account: { action: 'accept', content: { account: 'savings' } } },
    });
    if (second instanceof ProtocolError || second.kind !== 'input_required' || second.requestState === undefined) {
      throw new Error(`round 2 did not ask for confirmation with state: ${JSON.stringify(second)}`);
    }
    log(`    ${describe(second)}`);
    const token = second.requestState;
    check('confirm' in second.inputRequests, 'round 2 asks to confirm, naming the account');
    check(
      !token.includes('savings') && !Buffer.from(token, 'base64url').toString('latin1').includes('savings'),
      'the sealed state does not show the account (encrypted, not just encoded)',
    );

    log('[3] attack: change one character of the sealed state');
    refused(
      'tampered state',
      await leg(vault, {
        requestState: tamper(token),
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      }),
      'tampered',
    );

    log('[4] attack: forge the state in plain JSON ({"account":"checking"})');
    refused(
      'forged plaintext state',
      await leg(vault, {
        requestState: JSON.stringify({ account: 'checking' }),
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      }),
      'malformed',
    );

    log('[5] attack: state sealed by another vault under a foreign key');
    const foreign = await connect(newKey(), () => {});
    await leg(foreign, {});
    const foreignSecond = await leg(foreign, {
      inputResponses: { account: { action: 'accept', content: { account: 'checking' } } },
    });
    const foreignToken =
      foreignSecond instanceof ProtocolError || foreignSecond.kind !== 'input_required'
        ? undefined
        : foreignSecond.requestState;
    check(foreignToken !== undefined, 'the foreign vault minted a state of its own');
    refused(
      'foreign-key state',
      await leg(vault, {
        requestState: foreignToken,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      }),
      'unknown_key',
    );

    log('[6] round 3: the genuine state, confirm=true');
    const third = await leg(vault, {
      requestState: token,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    if (third instanceof ProtocolError) throw third;
    log(`    ${describe(third)}`);
    check(
      third.kind === 'complete' &&
        third.result.content.some((block) => block.type === 'text' && block.text === 'moved 2500 cents out of savings'),
      'round 3 completes with the account from the sealed state: moved 2500 cents out of savings',
    );

    log('[7] attack: replay the same state a second time');
    refused(
      'replayed state',
      await leg(vault, {
        requestState: token,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      }),
      'replayed',
    );

    log('[8] a second instance sharing the key continues a call the first began');
    const twin = await connect(key);
    const again = await leg(vault, {
      inputResponses: { account: { action: 'accept', content: { account: 'checking' } } },
    });
    const againToken =
      again instanceof ProtocolError || again.kind !== 'input_required' ? undefined : again.requestState;
    const onTwin = await leg(twin, { requestState: againToken, inputResponses: { confirm: { action: 'decline' } } });
    if (onTwin instanceof ProtocolError) throw onTwin;
    log(`    ${describe(onTwin)}`);
    check(
      onTwin.kind === 'complete' &&
        onTwin.result.content.some((block) => block.type === 'text' && block.text === 'nothing moved'),
      'the twin opens the state; a declined confirmation moves nothing',
    );
  } catch (error) {
    tally.fail(error);
  } finally {
    await Promise.all(connections.map((connection) => connection.close()));
  }
  return tally.report(`mrtr-walkthrough 2026-07-28`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runWalkthrough();
  process.exitCode = report.failed > 0 ? 1 : 0;
}
