/**
 * Answer pages under attack: one client flooding pages with a 60 KB argument echoed in the question
 * (in memory, and on a fleet's Redis with `maxmemory 50mb`, where many clients flood too), with
 * other users' in-band calls and page questions measured during it; a store failure while a
 * person submits an answer; and an attacker planting an answer into another caller's same call.
 */
import { randomBytes } from 'node:crypto';

import type { AttackRedis, AttackServer, Case, Leg, Outcome, Scope } from './harness.js';
import { accept, manualHttp, mb, outcome } from './harness.js';

/** A fresh argument of `bytes` (even): every call a new page. */
const fresh = (bytes: number): string => randomBytes(bytes / 2).toString('hex');

/** The link a page-link result hands out. */
const linkOf = (leg: Leg): string | undefined =>
  leg.kind === 'complete' ? /https?:\/\/\S+\/mcp-resolve\/answer\/[\w-]{22}/.exec(leg.text)?.[0] : undefined;

const short = (leg: Leg): string =>
  leg.kind === 'complete' ? leg.text.slice(0, 90) : leg.kind === 'error' ? leg.message.slice(0, 90) : leg.kind;

/** `principal` calling `note` with a fresh argument of `bytes` `calls` times, as a client that shows no forms. */
async function flood(scope: Scope, server: AttackServer, principal: string, calls: number, bytes = 60_000) {
  const client = await manualHttp(server.url, { token: `token-${principal}`, capabilities: {} });
  scope.defer(() => client.close());
  const started = performance.now();
  let opened = 0;
  let openedMs = 0;
  const refusals: string[] = [];
  for (let index = 0; index < calls; index += 1) {
    const leg = await client.round('note', { text: fresh(bytes) });
    if (linkOf(leg) !== undefined) {
      opened += 1;
      openedMs = performance.now() - started;
    } else refusals.push(leg.kind === 'complete' ? leg.text : short(leg));
  }
  const rate = opened === 0 ? 0 : Math.round((opened / openedMs) * 1000);
  return { opened, rate, refusals, seconds: (performance.now() - started) / 1000 };
}

/** Another user's calls: an in-band refund (a replay-guard write on a fleet) and a page question. */
async function otherUser(scope: Scope, server: AttackServer) {
  const forms = await manualHttp(server.url, { token: 'token-alice' });
  const noForms = await manualHttp(server.url, { token: 'token-alice', capabilities: {} });
  scope.defer(async () => void (await Promise.all([forms.close(), noForms.close()])));
  let refunds = 0;
  for (let index = 0; index < 5; index += 1) {
    const asked = await forms.round('refund', { order_id: `ORD-${index}` });
    const requestState = asked.kind === 'input_required' ? asked.requestState : undefined;
    const done = await forms.round(
      'refund',
      { order_id: `ORD-${index}` },
      { inputResponses: { confirm: accept({ confirm: true }) }, requestState },
    );
    if (done.kind === 'complete' && done.text === `Refunded ORD-${index}.`) refunds += 1;
  }
  const page = await noForms.round('note', { text: 'Lunch at noon' });
  return { refunds, page: linkOf(page) !== undefined ? 'got its page' : `"${short(page)}"` };
}

const refusedFor = (refusals: readonly string[], bound: string) => refusals.filter((text) => text.includes(bound));
/** Text the client must never see: Redis's own words. */
const leaked = (texts: readonly string[]) => texts.filter((text) => /OOM|Redis|ECONNREFUSED/.test(text));

async function memoryFlood(scope: Scope): Promise<Outcome[]> {
  const server = await scope.server({ auth: true, answerPage: { backend: 'memory' } });
  const heapBefore = await server.heap();
  const attack = await flood(scope, server, 'mallory', 300);
  // The room large pages leave, filled with small ones.
  const filler = await flood(scope, server, 'mallory', 100, 2_000);
  const heapAfter = await server.heap();
  const other = await otherUser(scope, server);
  const quota = refusedFor(attack.refusals, 'maxPagesPerClient');
  const retry = /retry after (\d+) s/.exec(quota[0] ?? '')?.[1];
  return [
    outcome(
      'page flood on memory, one client',
      attack.opened === 16 && quota.length === 284 && filler.opened === 0,
      `mallory: ${attack.opened} pages of 60 KB at ${attack.rate} pages/s, then ${quota.length} of ${attack.refusals.length} calls refused naming maxPagesPerClient (retry after ${retry ?? '?'} s), then ${filler.opened} of 100 pages of 2 KB; heap ${mb(heapBefore)} → ${mb(heapAfter)} (limit 16 pages a client)`,
    ),
    outcome(
      'page flood on memory, other users',
      other.refunds === 5 && other.page === 'got its page',
      `alice during the flood: ${other.refunds} of 5 in-band refunds completed, a page question ${other.page} (limit: all)`,
    ),
  ];
}

/** Starts a fleet member serving pages from a Redis with `maxmemory 50mb`. */
async function redisMember(scope: Scope): Promise<{ redis: AttackRedis; server: AttackServer }> {
  const redis = await scope.redis(['--maxmemory', '50mb']);
  const server = await scope.server({
    auth: true,
    redis: { url: redis.url, instanceId: 'a' },
    answerPage: { backend: 'redis' },
  });
  return { redis, server };
}

async function redisFlood(scope: Scope): Promise<Outcome[]> {
  const { redis, server } = await redisMember(scope);
  const usedBefore = await redis.info('used_memory');
  const one = await flood(scope, server, 'mallory', 100);
  const afterOne = await otherUser(scope, server);
  // Then the same attacker from 40 principals at once (a botnet), past the fleet's byte budget.
  const many = await Promise.all(
    Array.from({ length: 40 }, (_, index) => flood(scope, server, `mallory-${index}`, 20)),
  );
  // The room large pages leave, filled with small ones.
  many.push(await flood(scope, server, 'mallory-small', 300, 2_000));
  const opened = many.reduce((sum, run) => sum + run.opened, 0);
  const refusals = many.flatMap((run) => run.refusals);
  const usedAfter = await redis.info('used_memory');
  const maxmemory = await redis.info('maxmemory');
  const afterMany = await otherUser(scope, server);
  const quota = refusedFor(one.refusals, 'maxPagesPerClient');
  const budget = refusedFor(refusals, 'maxHeldBytes');
  const leaks = leaked([...one.refusals, ...refusals, afterMany.page]);
  return [
    outcome(
      'page flood on Redis (maxmemory 50mb), one client',
      one.opened === 16 && quota.length === 84 && afterOne.refunds === 5 && afterOne.page === 'got its page',
      `mallory: ${one.opened} pages at ${one.rate} pages/s, then ${quota.length} of ${one.refusals.length} refused naming maxPagesPerClient; alice: ${afterOne.refunds} of 5 in-band refunds, a page question ${afterOne.page} (limit: 16 a client, others unaffected)`,
    ),
    outcome(
      'page flood on Redis (maxmemory 50mb), 40 clients',
      budget.length > 0 && leaks.length === 0 && usedAfter < maxmemory / 2 + 4e6 && afterMany.refunds === 5,
      `${opened} pages (40 × 20 of 60 KB, 300 of 2 KB), then ${budget.length} of ${refusals.length} calls refused naming maxHeldBytes; Redis ${mb(usedBefore)} → ${mb(usedAfter)} of ${mb(maxmemory)}; ${leaks.length} Redis errors shown; alice: ${afterMany.refunds} of 5 in-band refunds (replay writes), a page question ${afterMany.page} (limit: no OOM, no raw errors, replay writes succeed)`,
    ),
  ];
}

/** A browser: GET the page, then POST the form with its token and cookie. */
async function browser(link: string) {
  const shown = await fetch(link);
  const html = await shown.text();
  const token = /name="form-token" value="([^"]*)"/.exec(html)?.[1] ?? '';
  const cookie = shown.headers.get('set-cookie')?.split(';')[0] ?? '';
  const post = async () => {
    const form = new URLSearchParams({ 'form-token': token, action: 'accept', 'field.keep': 'on' });
    const response = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: form.toString(),
    });
    return { status: response.status, html: await response.text() };
  };
  return { status: shown.status, post };
}

async function submitFailure(scope: Scope): Promise<Outcome[]> {
  const redis = await scope.redis();
  const server = await scope.server({ redis: { url: redis.url, instanceId: 'a' }, answerPage: { backend: 'redis' } });
  const client = await manualHttp(server.url, { capabilities: {} });
  scope.defer(() => client.close());
  const link = linkOf(await client.round('note', { text: 'Lunch at noon' }));
  if (link === undefined) return [outcome('store failure during submit', false, 'no page link')];
  const page = await browser(link);
  // Every write refused (OOM), reads still answered: the failure falls between reading the page and storing the answer.
  await redis.configSet('maxmemory', '1');
  const failed = await page.post();
  await redis.configSet('maxmemory', '0');
  const again = await fetch(link);
  const retried = await page.post();
  const done = await client.round('note', { text: 'Lunch at noon' });
  const notSaved = failed.html.includes('Your answer was not saved');
  return [
    outcome(
      'store failure during submit',
      failed.status === 503 &&
        notSaved &&
        !/OOM|Redis/.test(failed.html) &&
        again.status === 200 &&
        done.kind === 'complete' &&
        done.text === 'Kept.',
      `post during the failure: ${failed.status}${notSaved ? ' "Your answer was not saved … send the answer again"' : ''}${/OOM|Redis/.test(failed.html) ? ' (shows Redis text)' : ''}; the link then ${again.status}, the post again ${retried.status}, the call again "${short(done)}" (limit: 503 not-saved page, link alive, answer kept)`,
    ),
  ];
}

/** The URL of the page a URL-only client is sent to (the `keep` question's URL request). */
const pageUrlOf = (leg: Leg): string | undefined => {
  if (leg.kind !== 'input_required') return undefined;
  const request = leg.inputRequests['keep'];
  const params = request?.params as { url?: unknown } | undefined;
  return typeof params?.url === 'string' ? params.url : undefined;
};

/**
 * Answer planting: an anonymous attacker makes the victim's exact call (same tool, same arguments),
 * answers the page it is sent to, and the victim then says it answered its own page (it did not):
 * the victim's call must not go on with the attacker's answer.
 */
async function answerPlanting(scope: Scope): Promise<Outcome[]> {
  const server = await scope.server({ answerPage: { backend: 'memory' } });
  const urlOnly = { elicitation: { url: {} } };
  const [victim, attacker] = await Promise.all([
    manualHttp(server.url, { capabilities: urlOnly }),
    manualHttp(server.url, { capabilities: urlOnly }),
  ]);
  scope.defer(async () => void (await Promise.all([victim.close(), attacker.close()])));
  const args = { text: 'Lunch at noon' };
  const asked = await victim.round('note', args);
  const attackerAsked = await attacker.round('note', args);
  const [victimPage, attackerPage] = [pageUrlOf(asked), pageUrlOf(attackerAsked)];
  if (victimPage === undefined || attackerPage === undefined) {
    return [outcome('answer planting', false, `no page: "${short(asked)}" / "${short(attackerAsked)}"`)];
  }
  const planted = await (await browser(attackerPage)).post();
  const requestState = asked.kind === 'input_required' ? asked.requestState : undefined;
  const after = await victim.round('note', args, { inputResponses: { keep: { action: 'accept' } }, requestState });
  const hijacked = after.kind === 'complete' && after.text === 'Kept.';
  return [
    outcome(
      'answer planting',
      victimPage !== attackerPage && planted.status === 200 && !hijacked && pageUrlOf(after) === victimPage,
      `the same call by two anonymous URL-only clients: ${victimPage === attackerPage ? 'one page' : 'two pages'}; the attacker answered its own (${planted.status}); the victim's call then ${hijacked ? 'completed with the planted answer' : `asked again on its own page ("${short(after)}")`} (limit: never the planted answer)`,
    ),
  ];
}

/** The cases. */
export const pageCases: readonly Case[] = [
  { name: 'page flood on memory', timeoutMs: 60_000, options: ['maxPagesPerClient'], run: memoryFlood },
  { name: 'page flood on Redis', timeoutMs: 120_000, options: ['maxPagesPerClient', 'maxHeldBytes'], run: redisFlood },
  { name: 'page store failure during submit', timeoutMs: 30_000, run: submitFailure },
  { name: 'page answer planting', timeoutMs: 30_000, run: answerPlanting },
];
