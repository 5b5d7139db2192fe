/**
 * A question's attempts under attack: a client guesses the `lock` tool's 4-digit code (its resolver
 * checks it, `attempts: 3`; the code is the 31st guess) with a fresh call for every guess, in-band,
 * on the answer page's link, in the app in the chat, and alternating between two fleet members on
 * one Redis; and a client that sends the app a ticket it chose itself.
 */
import type { Case, ManualHttp, Outcome, Scope } from './harness.js';
import { accept, manualHttp, outcome } from './harness.js';

const GUESSES = 31;
const LIMIT = 3;
const guessOf = (index: number): string => String(index).padStart(4, '0');

/** What the server did with one guess: checked it (refused or unlocked), or refused it unread. */
type Verdict = 'refused' | 'unlocked' | 'closed' | 'other';

function verdictOf(text: string, asked: boolean): Verdict {
  if (text === 'Unlocked') return 'unlocked';
  if (text.includes('takes no more answers for now')) return 'closed';
  if (asked || text.includes('That is not the code.')) return 'refused';
  return 'other';
}

/** Guesses taken (checked) vs refused unread, and whether the lock opened, as a figure. */
function tally(name: string, verdicts: readonly Verdict[]): Outcome {
  const checked = verdicts.filter((verdict) => verdict === 'refused' || verdict === 'unlocked').length;
  const closed = verdicts.filter((verdict) => verdict === 'closed').length;
  const unlocked = verdicts.includes('unlocked');
  return outcome(
    name,
    checked <= LIMIT && !unlocked && closed === GUESSES - checked,
    `${checked} of ${GUESSES} guesses checked, ${closed} refused unread, ${unlocked ? '"Unlocked"' : 'still locked'} (limit: ${LIMIT} checked, never unlocked)`,
  );
}

/** One in-band guess on a fresh 2026-07-28 call to `client`. */
async function inBandGuess(client: ManualHttp, guess: string): Promise<Verdict> {
  const first = await client.round('lock', {});
  if (first.kind !== 'input_required') return 'other';
  const second = await client.round(
    'lock',
    {},
    { inputResponses: { code: accept({ code: guess }) }, requestState: first.requestState },
  );
  if (second.kind === 'input_required') return 'refused';
  return second.kind === 'complete' ? verdictOf(second.text, false) : 'other';
}

async function inBand(scope: Scope): Promise<Outcome[]> {
  const server = await scope.server({});
  const client = await manualHttp(server.url, { capabilities: { elicitation: { form: {} } } });
  scope.defer(() => client.close());
  const verdicts: Verdict[] = [];
  for (let index = 0; index < GUESSES; index++) verdicts.push(await inBandGuess(client, guessOf(index)));
  return [tally(`attempts: ${GUESSES} guesses at a 4-digit lock, in-band, a fresh call each`, verdicts)];
}

async function fleet(scope: Scope): Promise<Outcome[]> {
  const redis = await scope.redis();
  const members = [
    await scope.server({ redis: { url: redis.url, instanceId: 'a' } }),
    await scope.server({ redis: { url: redis.url, instanceId: 'b' } }),
  ];
  const clients = await Promise.all(
    members.map((member) => manualHttp(member.url, { capabilities: { elicitation: { form: {} } } })),
  );
  for (const client of clients) scope.defer(() => client.close());
  const verdicts: Verdict[] = [];
  for (let index = 0; index < GUESSES; index++) verdicts.push(await inBandGuess(clients[index % 2]!, guessOf(index)));
  return [tally(`attempts: ${GUESSES} guesses alternating between two fleet members on one Redis`, verdicts)];
}

const linkIn = (text: string): string | undefined => /https?:\/\/\S+\/mcp-resolve\/answer\/[\w-]{22}/.exec(text)?.[0];

/** Answers the page at `link` with `guess`, as a browser: GET for its token and cookie, then POST. */
async function answerOnPage(link: string, guess: string): Promise<void> {
  const shown = await fetch(link);
  const token = /name="form-token" value="([^"]*)"/.exec(await shown.text())?.[1] ?? '';
  const cookie = shown.headers.get('set-cookie')?.split(';')[0] ?? '';
  const form = new URLSearchParams({ 'form-token': token, action: 'accept', 'field.code': guess });
  await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: form.toString(),
  }).then((response) => response.text());
}

async function pageLink(scope: Scope): Promise<Outcome[]> {
  const server = await scope.server({ answerPage: { backend: 'memory' } });
  const client = await manualHttp(server.url, { capabilities: {} });
  scope.defer(() => client.close());
  const textOf = async () => {
    const leg = await client.round('lock', {});
    return leg.kind === 'complete' ? leg.text : '';
  };
  const verdicts: Verdict[] = [];
  let text = await textOf();
  for (let index = 0; index < GUESSES; index++) {
    const link = linkIn(text) ?? linkIn(await textOf());
    if (link !== undefined) await answerOnPage(link, guessOf(index));
    text = await textOf();
    verdicts.push(verdictOf(text, false));
  }
  return [tally(`attempts: ${GUESSES} guesses at a 4-digit lock on the page link`, verdicts)];
}

const APPS_ONLY = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const QUESTION_META = 'io.github.mcp-resolve/question';
const TICKET_META = 'io.github.mcp-resolve/ticket';

interface AppTurn {
  readonly text: string;
  readonly question: { readonly page: string; readonly ticket: string } | undefined;
}

/** `lock` called by the app's client, with `ticket` when given. */
async function appCall(client: ManualHttp, ticket?: string): Promise<AppTurn> {
  const result = (await client.client.callTool({
    name: 'lock',
    arguments: {},
    ...(ticket !== undefined && { _meta: { [TICKET_META]: ticket } }),
  })) as { content?: Array<{ text?: string }>; _meta?: Record<string, unknown> };
  const question = result._meta?.[QUESTION_META] as AppTurn['question'];
  return { text: result.content?.map((part) => part.text ?? '').join('') ?? '', question };
}

async function app(scope: Scope): Promise<Outcome[]> {
  const server = await scope.server({ apps: true });
  const client = await manualHttp(server.url, { capabilities: APPS_ONLY });
  scope.defer(() => client.close());
  const verdicts: Verdict[] = [];
  let turn = await appCall(client);
  for (let index = 0; index < GUESSES; index++) {
    if (turn.question === undefined) turn = await appCall(client);
    const question = turn.question;
    if (question === undefined) {
      verdicts.push(verdictOf(turn.text, false));
      continue;
    }
    const form = new URLSearchParams({ action: 'accept', 'field.code': guessOf(index) }).toString();
    await client.client.callTool({ name: 'mcp_resolve_answer', arguments: { page: question.page, form } });
    turn = await appCall(client, question.ticket);
    verdicts.push(verdictOf(turn.text, turn.question !== undefined));
  }
  return [tally(`attempts: ${GUESSES} guesses at a 4-digit lock in the app`, verdicts)];
}

async function chosenTicket(scope: Scope): Promise<Outcome[]> {
  const server = await scope.server({ apps: true });
  const client = await manualHttp(server.url, { capabilities: APPS_ONLY });
  scope.defer(() => client.close());
  const chosen = 'A'.repeat(64);
  const turn = await appCall(client, chosen);
  const handed = turn.question?.ticket;
  return [
    outcome(
      'attempts: an app ticket the client chose (64 "A"s)',
      handed !== undefined && handed !== chosen,
      `the call handed back ${handed === chosen ? 'the chosen ticket' : handed === undefined ? 'no ticket' : 'a ticket the server minted'} (limit: never the client's own)`,
    ),
  ];
}

export const attemptCases: readonly Case[] = [
  { name: 'attempts in-band', timeoutMs: 60_000, run: inBand },
  { name: 'attempts on the page link', timeoutMs: 60_000, run: pageLink },
  { name: 'attempts in the app', timeoutMs: 60_000, run: app },
  { name: 'attempts on a fleet', timeoutMs: 60_000, run: fleet },
  { name: 'attempts: a self-chosen app ticket', timeoutMs: 30_000, run: chosenTicket },
];
