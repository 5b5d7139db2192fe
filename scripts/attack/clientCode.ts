/**
 * What a client sends never chooses the code the server runs: a schema and pattern planted in the
 * app-only tool (issue 47, row 1), an answer crafted against the author's own backtracking pattern
 * on both eras and through the app, a flood of distinct questions and invalid answers (row 2), and
 * an answer page posted to without end. Another user's one-line calls are timed meanwhile (the
 * attacker keeps one request in flight, so the figure is what one attacking request costs others).
 */
import { connectHttp } from 'mcp-resolve/testing';

import type { AttackServer, Case, Outcome, Scope } from './harness.js';
import { accept, manualHttp, mb, outcome, since } from './harness.js';

/** The app-only tool and the `_meta` key of an in-chat question (the package's wire values). */
const ANSWER_TOOL = 'mcp_resolve_answer';
const QUESTION_META = 'io.github.mcp-resolve/question';
/** A client that renders apps and shows no forms. */
const APPS_ONLY = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

/** A near-miss of `^(a+)+$`: about 2^28 steps for a backtracking engine. */
const NEAR_MISS = `${'a'.repeat(28)}!`;
const CATASTROPHIC_SCHEMA = {
  type: 'object',
  properties: { code: { type: 'string', pattern: '^(a+)+$' } },
  required: ['code'],
};
const nearMissForm = new URLSearchParams({ action: 'accept', 'field.code': NEAR_MISS }).toString();

/** `count` attacks one after another (one in flight: another user waits for at most one), their outcomes in order. */
async function oneByOne<T>(count: number, attack: (index: number) => Promise<T>): Promise<T[]> {
  const outcomes: T[] = [];
  for (let index = 0; index < count; index += 1) outcomes.push(await attack(index));
  return outcomes;
}

/** The longest another user may wait for a one-line call while an attack runs. */
const MAX_WAIT_MS = 100;

/** The slowest of another user's `echo` calls, made one after another while `attack` runs. */
async function slowestDuring(server: AttackServer, attack: Promise<unknown>): Promise<number> {
  const alice = await manualHttp(server.url);
  for (let index = 0; index < 5; index += 1) await alice.round('echo', { text: 'warm' }); // untimed
  let done = false;
  const finished = attack.finally(() => (done = true));
  let slowest = 0;
  try {
    for (let index = 0; index < 200 && (!done || index < 20); index += 1) {
      const started = performance.now();
      const leg = await alice.round('echo', { text: 'hi' });
      if (leg.kind !== 'complete' || leg.text !== 'hi') throw new Error(`echo failed: ${JSON.stringify(leg)}`);
      slowest = Math.max(slowest, since(started));
    }
    await finished;
  } finally {
    await alice.close();
  }
  return slowest;
}

/**
 * `attack()` run while another user calls, with that user's slowest call. A machine busy elsewhere
 * (CI runs steps side by side) delays calls too: a figure over {@link MAX_WAIT_MS} is measured once
 * more with a fresh run of the attack and the lower kept, so only a wait the attack causes again counts.
 */
async function otherUsersSlowest<T>(
  server: AttackServer,
  attack: () => Promise<T>,
): Promise<{ slowest: number; outcome: T }> {
  let run = attack();
  let slowest = await slowestDuring(server, run);
  if (slowest >= MAX_WAIT_MS) {
    run = attack();
    slowest = Math.min(slowest, await slowestDuring(server, run));
  }
  return { slowest, outcome: await run };
}

/** Row 1: a schema with a catastrophic pattern planted in the app-only tool, with a near-miss answer. */
async function plantedSchema(scope: Scope): Promise<Outcome[]> {
  const server = await scope.server({ apps: true });
  const attacker = await manualHttp(server.url, { capabilities: APPS_ONLY });
  scope.defer(() => attacker.close());
  const planted = () =>
    oneByOne(20, () =>
      attacker.client.callTool({
        name: ANSWER_TOOL,
        arguments: { question: { message: 'Unlock?', requestedSchema: CATASTROPHIC_SCHEMA }, form: nearMissForm },
      }),
    );
  const { slowest, outcome: results } = await otherUsersSlowest(server, planted);
  const shown = results.filter((result) => result.isError !== true).length;
  return [
    outcome(
      'planted schema in the app tool',
      shown === 0 && slowest < MAX_WAIT_MS,
      `20 calls with requestedSchema.pattern ^(a+)+$ and a 29-character near-miss: ${shown} rendered or checked; another user's slowest call ${slowest} ms (limit: 0, < 100 ms)`,
    ),
  ];
}

/** Row 1, the author's own pattern: near-miss answers in-band on both eras and through the app. */
async function authorPattern(scope: Scope): Promise<Outcome[]> {
  const server = await scope.server({ apps: true });
  const modern = await manualHttp(server.url);
  scope.defer(() => modern.close());
  const modernAttack = () =>
    oneByOne(10, async (index) => {
      const asked = await modern.round('letters', { text: `m${index}` });
      if (asked.kind !== 'input_required') return 'not asked';
      const again = await modern.round(
        'letters',
        { text: `m${index}` },
        { inputResponses: { letters: accept({ code: NEAR_MISS }) }, requestState: asked.requestState },
      );
      return again.kind;
    });
  const { slowest: modernSlowest, outcome: modernKinds } = await otherUsersSlowest(server, modernAttack);

  const legacy = await connectHttp(server.url, {
    era: 'legacy',
    elicit: () => ({ action: 'accept', content: { code: NEAR_MISS } }),
  });
  scope.defer(() => legacy.close());
  const legacyAttack = () =>
    oneByOne(5, (index) =>
      legacy.client.callTool({ name: 'letters', arguments: { text: `l${index}` } }).then(
        (result) => (result.isError === true ? 'refused' : 'taken'),
        () => 'refused',
      ),
    );
  const { slowest: legacySlowest, outcome: legacyOutcomes } = await otherUsersSlowest(server, legacyAttack);

  const app = await manualHttp(server.url, { capabilities: APPS_ONLY });
  scope.defer(() => app.close());
  const handOff = await app.client.callTool({ name: 'letters', arguments: { text: 'app' } });
  const page = (handOff._meta?.[QUESTION_META] as { page?: string } | undefined)?.page;
  const appAttack = () =>
    oneByOne(20, () =>
      app.client
        .callTool({ name: ANSWER_TOOL, arguments: { page, form: nearMissForm } })
        .then((result) => (result.structuredContent as { status?: string } | undefined)?.status),
    );
  const { slowest: appSlowest, outcome: appStatuses } = await otherUsersSlowest(server, appAttack);

  const reAsked = modernKinds.filter((kind) => kind === 'input_required').length;
  const refused = legacyOutcomes.filter((kind) => kind === 'refused').length;
  const invalid = appStatuses.filter((status) => status === 'invalid').length;
  return [
    outcome(
      "the author's backtracking pattern, near-miss answers",
      reAsked === 10 &&
        refused === 5 &&
        invalid === 20 &&
        Math.max(modernSlowest, legacySlowest, appSlowest) < MAX_WAIT_MS,
      `2026-07-28: ${reAsked} of 10 asked again, another user's slowest call ${modernSlowest} ms; 2025-11-25: ${refused} of 5 calls refused after their attempts, slowest ${legacySlowest} ms; app: ${invalid} of 20 refused${page === undefined ? ' (no page)' : ''}, slowest ${appSlowest} ms (limit: all refused, < 100 ms)`,
    ),
  ];
}

/** Rows 1 and 2 on two fleet members sharing a Redis: the question stored by one, planted and near-miss answers sent to the other. */
async function onAFleet(scope: Scope): Promise<Outcome[]> {
  const redis = await scope.redis();
  const [a, b] = await Promise.all(
    ['a', 'b'].map((instanceId) => scope.server({ apps: true, redis: { url: redis.url, instanceId } })),
  );
  const asker = await manualHttp(a!.url, { capabilities: APPS_ONLY });
  const answerer = await manualHttp(b!.url, { capabilities: APPS_ONLY });
  scope.defer(async () => void (await Promise.all([asker.close(), answerer.close()])));
  const handOff = await asker.client.callTool({ name: 'letters', arguments: { text: 'fleet' } });
  const page = (handOff._meta?.[QUESTION_META] as { page?: string } | undefined)?.page;
  const attack = () =>
    oneByOne(20, async (index) => {
      const args =
        index % 2 === 0
          ? { page, form: nearMissForm }
          : { question: { message: 'Unlock?', requestedSchema: CATASTROPHIC_SCHEMA }, form: nearMissForm };
      const result = await answerer.client.callTool({ name: ANSWER_TOOL, arguments: args });
      return result.isError === true
        ? 'refused'
        : (result.structuredContent as { status?: string } | undefined)?.status;
    });
  const { slowest, outcome: statuses } = await otherUsersSlowest(b!, attack);
  const invalid = statuses.filter((status) => status === 'invalid').length;
  const refused = statuses.filter((status) => status === 'refused').length;
  return [
    outcome(
      'client code paths on a fleet',
      page !== undefined && invalid === 10 && refused === 10 && slowest < MAX_WAIT_MS,
      `a question stored by one member (Redis), answered on the other: ${invalid} of 10 near-miss answers refused by the stored form, ${refused} of 10 planted schemas refused; another user's slowest call ${slowest} ms (limit: all refused, < 100 ms)`,
    ),
  ];
}

/** Row 2: distinct 30 kB schemas sent to the app tool, then 10,000 invalid answers to stored questions. */
async function validatorFlood(scope: Scope): Promise<Outcome[]> {
  const server = await scope.server({ apps: true });
  const attacker = await manualHttp(server.url, { capabilities: APPS_ONLY });
  scope.defer(() => attacker.close());
  const pages: string[] = [];
  for (let index = 0; index < 16; index += 1) {
    const handOff = await attacker.client.callTool({ name: 'letters', arguments: { text: `q${index}` } });
    const page = (handOff._meta?.[QUESTION_META] as { page?: string } | undefined)?.page;
    if (page !== undefined) pages.push(page);
  }
  const heapBefore = await server.heap();
  let planted = 0;
  for (let batch = 0; batch < 300; batch += 1) {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) => {
        const properties = Object.fromEntries(
          Array.from({ length: 300 }, (_, field) => [
            `f${batch}_${index}_${field}`,
            { type: 'string', pattern: `^x${field}$` },
          ]),
        );
        return attacker.client.callTool({
          name: ANSWER_TOOL,
          arguments: { question: { message: `q${batch}-${index}`, requestedSchema: { type: 'object', properties } } },
        });
      }),
    );
    planted += results.filter((result) => result.isError !== true).length;
  }
  const heapAfterSchemas = await server.heap();
  let invalid = 0;
  for (let batch = 0; batch < 1_250; batch += 1) {
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        attacker.client
          .callTool({
            name: ANSWER_TOOL,
            arguments: {
              page: pages[(batch * 8 + index) % pages.length],
              form: new URLSearchParams({ action: 'accept', 'field.code': `b${batch}-${index}` }).toString(),
            },
          })
          .then((result) => (result.structuredContent as { status?: string } | undefined)?.status),
      ),
    );
    invalid += statuses.filter((status) => status === 'invalid').length;
  }
  const heapAfter = await server.heap();
  const schemasGrowth = heapAfterSchemas - heapBefore;
  const answersGrowth = heapAfter - heapAfterSchemas;
  return [
    outcome(
      'validator flood: distinct schemas and invalid answers',
      planted === 0 && invalid === 10_000 && pages.length === 16 && schemasGrowth < 2e6 && answersGrowth < 2e6,
      `2,400 distinct 30 kB schemas: ${planted} used, heap ${mb(heapBefore)} → ${mb(heapAfterSchemas)}; 10,000 invalid answers to ${pages.length} stored questions: ${invalid} refused, heap → ${mb(heapAfter)} (limit: none used, < 2 MB growth each)`,
    ),
  ];
}

/** Row 2: an answer page posted to without end. */
async function pagePosts(scope: Scope): Promise<Outcome[]> {
  const server = await scope.server({ answerPage: { backend: 'memory' } });
  const client = await manualHttp(server.url, { capabilities: {} });
  scope.defer(() => client.close());
  const leg = await client.round('letters', { text: 'page' });
  const link =
    leg.kind === 'complete' ? /https?:\/\/\S+\/mcp-resolve\/answer\/[\w-]{22}/.exec(leg.text)?.[0] : undefined;
  if (link === undefined) return [outcome('page posts', false, 'no page link')];
  const shown = await fetch(link);
  const token = /name="form-token" value="([^"]*)"/.exec(await shown.text())?.[1] ?? '';
  const cookie = shown.headers.get('set-cookie')?.split(';')[0] ?? '';
  const statuses: number[] = [];
  for (let index = 0; index < 40; index += 1) {
    const response = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({
        'form-token': token,
        action: 'accept',
        'field.code': `${NEAR_MISS}${index}`,
      }).toString(),
    });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  const refused = statuses.filter((status) => status === 422).length;
  const limited = statuses.filter((status) => status === 429).length;
  return [
    outcome(
      'page posts',
      refused === 30 && limited === 10,
      `40 near-miss posts to one page: ${refused} answered 422 (the form again), then ${limited} answered 429 with Retry-After (limit: 30 a minute)`,
    ),
  ];
}

/** The cases. */
export const clientCodeCases: readonly Case[] = [
  { name: 'planted schema', timeoutMs: 60_000, run: plantedSchema },
  { name: 'author pattern', timeoutMs: 90_000, run: authorPattern },
  { name: 'validator flood', timeoutMs: 180_000, run: validatorFlood },
  { name: 'page posts', timeoutMs: 30_000, run: pagePosts },
  { name: 'client code paths on a fleet', timeoutMs: 60_000, run: onAFleet },
];
