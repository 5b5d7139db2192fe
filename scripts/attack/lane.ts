/**
 * The modern lane under attack: 2026-07-28 calls of every client share one long-lived server
 * instance, so a client tries to reach another's call through it: cancellations naming every id the
 * instance could be using, and calls of its own with the victim's JSON-RPC id, while the victim's
 * call is in flight.
 */
import type { Case, Outcome, RawResponse } from './harness.js';
import { messageOf, outcome, raw, sleep } from './harness.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'attack', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A raw 2026-07-28 POST of `method` (a request when `id` is given, else a notification). */
function post(url: URL, method: string, params: Record<string, unknown>, id?: number): Promise<RawResponse> {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return raw(url, {
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name },
    body: JSON.stringify({
      jsonrpc: '2.0',
      ...(id !== undefined && { id }),
      method,
      params: { ...params, _meta: META },
    }),
  });
}

/** The first text of a `tools/call` result, and the JSON-RPC id it came back with. */
function answerOf(response: RawResponse): { id: unknown; text: string | undefined } {
  const message = messageOf(response) as { id?: unknown; result?: { content?: Array<{ text?: string }> } };
  return { id: message.id, text: message.result?.content?.[0]?.text };
}

const PROBES = 50;

export const laneCases: readonly Case[] = [
  {
    name: 'lane: a call is reached by nobody else',
    timeoutMs: 30_000,
    async run(scope): Promise<Outcome[]> {
      const server = await scope.server({});
      const victim = post(server.url, 'tools/call', { name: 'wait', arguments: { ms: 1_500 } }, 1);
      await sleep(200);
      // Ids on the shared connection are small integers: name every one a cancellation could hit.
      const cancels = await Promise.all(
        Array.from({ length: PROBES }, (_, index) =>
          post(server.url, 'notifications/cancelled', { requestId: index + 1, reason: 'attack' }),
        ),
      );
      const echoes = await Promise.all(
        Array.from({ length: PROBES }, (_, index) =>
          post(server.url, 'tools/call', { name: 'echo', arguments: { text: `attacker ${index}` } }, 1),
        ),
      );
      const answer = answerOf(await victim);
      const crossed = echoes.filter((echo, index) => answerOf(echo).text !== `attacker ${index}`).length;
      const accepted = cancels.filter((cancel) => cancel.status === 202).length;
      return [
        outcome(
          `lane: ${PROBES} cancellations by another client, ids 1–${PROBES}`,
          answer.id === 1 && answer.text === 'waited 1500 ms',
          `the call answered ${JSON.stringify(answer.text)} with id ${String(answer.id)}; ${accepted} of ${PROBES} cancellations taken (limit: the call completes, its own id back)`,
        ),
        outcome(
          `lane: ${PROBES} calls with the victim's id while it waits`,
          crossed === 0,
          `${crossed} of ${PROBES} got another call's answer (limit 0)`,
        ),
      ];
    },
  },
];
