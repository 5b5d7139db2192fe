/**
 * The replay guard under attack: a Redis that may evict is refused at start; with the documented
 * configuration (noeviction) a capability flood evicts no replay key and no completed final round
 * is accepted again; mutated tokens are never accepted and their log lines are rate-limited.
 */
import type { Case, Leg, ManualHttp } from './harness.js';
import { accept, manualHttp, spread, mb, outcome, paddedCapabilities, rawSession } from './harness.js';

/** The replay keys (hash-tagged by their prefix). */
const REPLAY_PREFIX = '{mcp-resolve:replay:}';

/** Completes one refund on `client` (2 rounds); returns the final round's continuation and result. */
async function refund(client: ManualHttp, orderId: string) {
  const first = await client.round('refund', { order_id: orderId });
  if (first.kind !== 'input_required') throw new Error(`refund ${orderId}: first round ${JSON.stringify(first)}`);
  const key = Object.keys(first.inputRequests)[0]!;
  const final = { inputResponses: { [key]: accept({ confirm: true }) }, requestState: first.requestState };
  const result: Leg = await client.round('refund', { order_id: orderId }, final);
  return { final, result };
}

const accepted = (leg: Leg) => leg.kind === 'complete' && !leg.isError;

export const replayCases: readonly Case[] = [
  {
    name: 'redis volatile-lru refused at start',
    timeoutMs: 20_000,
    options: ['(redis) maxmemory-policy check at connect', 'allowEvictingRedis (false)'],
    async run(scope) {
      const redis = await scope.redis(['--maxmemory', '40mb', '--maxmemory-policy', 'volatile-lru']);
      const started = await scope.tryServer({ redis: { url: redis.url, instanceId: 'a' } });
      const refused = !('server' in started);
      const named = refused && started.stderr.some((line) => line.includes('maxmemory-policy'));
      if ('server' in started) await started.server.stop();
      // The operator's opt-in: the member starts, with one loud warning naming the setting.
      const opted = await scope.tryServer({
        redis: { url: redis.url, instanceId: 'b', extra: { allowEvictingRedis: true } },
      });
      const warnings = 'server' in opted ? opted.server.stderr.filter((line) => line.includes('maxmemory-policy')) : [];
      return [
        outcome(
          'redis volatile-lru refused at start',
          refused && named,
          refused
            ? `exited ${started.exitCode}, message ${named ? 'names' : 'does not name'} maxmemory-policy (limit: refused, naming it)`
            : 'the fleet member started on an evicting Redis (limit: refused at start, naming maxmemory-policy)',
        ),
        outcome(
          'redis volatile-lru with allowEvictingRedis: true',
          'server' in opted && warnings.length >= 1 && warnings.length <= 2,
          'server' in opted
            ? `started, ${warnings.length} warning lines naming maxmemory-policy (limit: started, one warning)`
            : `exited ${opted.exitCode} (limit: started with 1 warning)`,
        ),
      ];
    },
  },
  {
    name: 'replay keys survive a capability flood (noeviction, 40mb)',
    timeoutMs: 45_000,
    options: ['maxClientCapabilitiesHeldBytes', 'legacySessionBudgetHeldBytes'],
    async run(scope) {
      const redis = await scope.redis(['--maxmemory', '40mb', '--maxmemory-policy', 'noeviction']);
      const members = await Promise.all(
        ['a', 'b'].map((id) => scope.server({ redis: { url: redis.url, instanceId: id } })),
      );
      const clients = await Promise.all(members.map((member) => manualHttp(member.url)));
      scope.defer(async () => void (await Promise.all(clients.map((client) => client.close()))));
      // 20 refunds, concurrently, alternating members: also checks that no flow sees another's result.
      const orders = Array.from({ length: 20 }, (_, index) => `ORD-${1000 + index}`);
      const done = await Promise.all(orders.map((order, index) => refund(clients[index % 2]!, order)));
      const crossTalk = done.filter(
        ({ result }, index) => result.kind !== 'complete' || result.text !== `Refunded ${orders[index]}.`,
      ).length;
      const keysBefore = await redis.count(REPLAY_PREFIX);
      // The flood: 60 anonymous legacy initializes with 1 MB of declared capabilities each.
      let admitted = 0;
      const memoryBefore = await redis.info('used_memory');
      for (let index = 0; index < 60; index += 1) {
        const { sessionId } = await rawSession(members[index % 2]!.url, paddedCapabilities(1_000_000), spread(index));
        if (sessionId !== undefined) admitted += 1;
      }
      const memoryAfter = await redis.info('used_memory');
      const keysAfter = await redis.count(REPLAY_PREFIX);
      let replays = 0;
      for (const [index, { final }] of done.entries()) {
        if (accepted(await clients[(index + 1) % 2]!.round('refund', { order_id: orders[index]! }, final)))
          replays += 1;
      }
      return [
        outcome(
          '20 concurrent refunds on 2 members, no cross-talk',
          crossTalk === 0,
          `${crossTalk} of 20 flows saw a wrong or no result (limit 0)`,
        ),
        outcome(
          'flood of 60 × 1 MB capabilities evicts no replay key',
          keysAfter >= keysBefore && keysBefore >= 20,
          `replay keys ${keysBefore} → ${keysAfter}; ${admitted} of 60 sessions admitted; Redis ${mb(memoryBefore)} → ${mb(memoryAfter)} (limit: no key lost)`,
        ),
        outcome(
          'completed final rounds replayed after the flood',
          replays === 0,
          `${replays} of 20 replays accepted (limit 0)`,
        ),
      ];
    },
  },
  {
    name: 'mutated requestState tokens',
    timeoutMs: 60_000,
    options: ['(answers) client-caused refusal log lines rate-limited'],
    async run(scope) {
      const server = await scope.server({});
      const client = await manualHttp(server.url);
      scope.defer(() => client.close());
      const { final } = await refund(client, 'ORD-1');
      const token = final.requestState!;
      const linesBefore = server.stderr.length;
      const MUTATIONS = 500;
      let acceptedCount = 0;
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const mutations = Array.from({ length: MUTATIONS }, (_, index) => {
        const at = (index * 7919) % token.length;
        const swapped = alphabet[(alphabet.indexOf(token[at]!) + 1 + (index % 62)) % alphabet.length]!;
        return token.slice(0, at) + swapped + token.slice(at + 1);
      });
      // Ten at a time, as a client with a connection pool would.
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          for (let mutated = mutations.pop(); mutated !== undefined; mutated = mutations.pop()) {
            const leg = await client.round('refund', { order_id: 'ORD-1' }, { ...final, requestState: mutated });
            if (accepted(leg)) acceptedCount += 1;
          }
        }),
      );
      await new Promise((wake) => setTimeout(wake, 300));
      const lines = server.stderr.length - linesBefore;
      return [
        outcome(
          `${MUTATIONS} token mutations`,
          acceptedCount === 0,
          `${acceptedCount} of ${MUTATIONS} accepted (limit 0)`,
        ),
        outcome(
          'log lines for bad tokens rate-limited',
          lines >= 1 && lines <= 20,
          `${lines} stderr lines for ${MUTATIONS} bad tokens in one burst (limit: 1..20, a count per interval, never silence)`,
        ),
      ];
    },
  },
];
