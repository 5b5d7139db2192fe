/**
 * The answer page's sign-in (`answerPage.signIn`) under attack, against a real issuer (issuer.ts)
 * on a server whose MCP requests carry its tokens (`oauth`), so alice's call opens a page bound to
 * her: forged, tampered and replayed callbacks; another person's, a tampered and another server's
 * session cookie on alice's page; parameters and headers that would send the browser off-site;
 * a flood of callbacks with made-up codes; and the cookies' flags.
 */
import { request as httpRequest } from 'node:http';

import type { AttackServer, Case, Outcome, Scope } from './harness.js';
import { manualHttp, outcome } from './harness.js';
import type { Issuer } from './issuer.js';
import { startIssuer } from './issuer.js';

const SESSION = 'mcp-resolve-signin';
const FLOW = 'mcp-resolve-signin-flow';
const PAGES = '/mcp-resolve/answer';
const EVIL = 'https://evil.example';

/** What a browser's GET came back with. */
interface Got {
  readonly status: number;
  readonly location: string | undefined;
  /** The `Set-Cookie` values. */
  readonly cookies: readonly string[];
}

/** A browser's GET of `url` (path and query) on `server`, with any headers (`host` included), not following redirects. */
function get(server: AttackServer, url: URL, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: server.port, path: `${url.pathname}${url.search}`, headers, agent: false },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            cookies: res.headers['set-cookie'] ?? [],
          }),
        );
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('page request timed out')));
    req.end();
  });
}

/** `name=value` of the cookie `name` among `cookies`, if set with a value. */
const cookieOf = (cookies: readonly string[], name: string): string | undefined =>
  cookies.find((cookie) => cookie.startsWith(`${name}=`) && !cookie.startsWith(`${name}=;`))?.split(';')[0];

/** A server with `oauth` and page sign-in at `issuer` (more `answerPage` and `serveHttp` options as given). */
const signInServer = (scope: Scope, issuer: Issuer, page: Record<string, unknown> = {}, http = {}) =>
  scope.server({
    http,
    oauth: { issuer: issuer.url },
    answerPage: { backend: 'memory', options: { signIn: { issuer: issuer.url, clientId: 'attack-pages' }, ...page } },
  });

/** The link of a page `sub` opens with a `note` call (as a client that shows no forms). */
async function pageOf(scope: Scope, issuer: Issuer, server: AttackServer, sub: string): Promise<URL> {
  const token = await issuer.sign({
    sub,
    client_id: 'attack-client',
    aud: server.url.href,
    exp: Math.floor(Date.now() / 1000) + 600,
  });
  const client = await manualHttp(server.url, { token, capabilities: {} });
  scope.defer(() => client.close());
  const leg = await client.round('note', { text: `for ${sub}` });
  const link =
    leg.kind === 'complete' ? /https?:\/\/\S+\/mcp-resolve\/answer\/[\w-]{22}/.exec(leg.text)?.[0] : undefined;
  if (link === undefined) throw new Error(`no page link for ${sub}: ${JSON.stringify(leg).slice(0, 120)}`);
  return new URL(link);
}

/** A sign-in started on `page` as `login`, up to the provider's redirect back (the callback not yet taken). */
async function startSignIn(server: AttackServer, page: URL, login: string, headers: Record<string, string> = {}) {
  const toProvider = await get(server, page, headers);
  const flow = cookieOf(toProvider.cookies, FLOW);
  if (toProvider.status !== 302 || toProvider.location === undefined || flow === undefined) {
    throw new Error(`the page did not send the browser to the provider (${toProvider.status})`);
  }
  const authorize = new URL(toProvider.location);
  authorize.searchParams.set('login', login);
  const back = await fetch(authorize, { redirect: 'manual' });
  const callback = new URL(back.headers.get('location') ?? '');
  return { toProvider, authorize, flow, callback };
}

/** A full sign-in as `login`: the callback's answer and the session cookie it set. */
async function signIn(server: AttackServer, page: URL, login: string) {
  const started = await startSignIn(server, page, login);
  const done = await get(server, started.callback, { cookie: started.flow });
  return { ...started, done, session: cookieOf(done.cookies, SESSION) };
}

async function callbackState(scope: Scope): Promise<Outcome[]> {
  const issuer = await startIssuer(scope);
  const server = await signInServer(scope, issuer);
  const page = await pageOf(scope, issuer, server, 'mallory');
  const { flow, callback } = await startSignIn(server, page, 'mallory');
  const forgedState = new URL(callback);
  forgedState.searchParams.set('state', 'forged-state');
  const [payload, mac] = flow.split('=')[1]!.split('.');
  const tamperedFlow = `${FLOW}=${payload}.${mac!.startsWith('A') ? 'B' : 'A'}${mac!.slice(1)}`;
  const tokenCallsBefore = issuer.counts.token;
  const attempts: Record<string, Got> = {
    'forged state': await get(server, forgedState, { cookie: flow }),
    'no flow cookie': await get(server, callback),
    'tampered flow cookie': await get(server, callback, { cookie: tamperedFlow }),
  };
  const forgedTokenCalls = issuer.counts.token - tokenCallsBefore;
  const good = await get(server, callback, { cookie: flow });
  attempts['replayed callback'] = await get(server, callback, { cookie: flow });
  const sessions = Object.values(attempts).filter((got) => cookieOf(got.cookies, SESSION) !== undefined).length;
  const refused = Object.values(attempts).filter((got) => got.status === 400).length;
  const list = Object.entries(attempts)
    .map(([name, got]) => `${name} ${got.status}`)
    .join(', ');
  return [
    outcome(
      'sign-in forged or replayed callback',
      refused === 4 && sessions === 0 && forgedTokenCalls === 0 && cookieOf(good.cookies, SESSION) !== undefined,
      `${list}; ${sessions} session cookies set, ${forgedTokenCalls} token endpoint calls for the forged ones; the real callback ${good.status} with a session (limit: each 400, 0 sessions, 0 calls)`,
    ),
  ];
}

/** `session` (`name=payload.mac`) with its payload's subject changed to `sub`, the MAC kept. */
function retargeted(session: string, sub: string): string {
  const [payload, mac] = session.slice(SESSION.length + 1).split('.');
  const fields = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as string[];
  fields[1] = sub;
  return `${SESSION}=${Buffer.from(JSON.stringify(fields)).toString('base64url')}.${mac}`;
}

async function sessionCookies(scope: Scope): Promise<Outcome[]> {
  const issuer = await startIssuer(scope);
  const server = await signInServer(scope, issuer);
  const other = await signInServer(scope, issuer);
  const alicePage = await pageOf(scope, issuer, server, 'alice');
  const mallory = await signIn(server, await pageOf(scope, issuer, server, 'mallory'), 'mallory');
  // alice's own session, from another server of the same provider and client (another formSecret).
  const elsewhere = await signIn(other, await pageOf(scope, issuer, other, 'alice'), 'alice');
  if (mallory.session === undefined || elsewhere.session === undefined) {
    return [outcome('sign-in session cookie of another', false, 'no session cookie from a real sign-in')];
  }
  const tries: Record<string, Got> = {
    "mallory's session": await get(server, alicePage, { cookie: mallory.session }),
    "mallory's session naming alice": await get(server, alicePage, { cookie: retargeted(mallory.session, 'alice') }),
    "alice's session from another server": await get(server, alicePage, { cookie: elsewhere.session }),
  };
  const alice = await signIn(server, alicePage, 'alice');
  const own = await get(server, alicePage, { cookie: alice.session ?? '' });
  const shown = Object.values(tries).filter((got) => got.status === 200).length;
  const expected = (got: Got) => got.status === 403 || (got.status === 302 && got.location?.startsWith(issuer.url));
  return [
    outcome(
      'sign-in session cookie of another',
      shown === 0 && Object.values(tries).every(expected) && own.status === 200,
      `alice's page shown to ${shown} of ${Object.keys(tries).length}: ${Object.entries(tries)
        .map(([name, got]) => `${name} ${got.status}${got.status === 302 ? ' to the provider' : ''}`)
        .join(', ')}; alice herself ${own.status} (limit 0: 403 or sign in again)`,
    ),
  ];
}

async function returnTarget(scope: Scope): Promise<Outcome[]> {
  const issuer = await startIssuer(scope);
  const server = await signInServer(scope, issuer);
  const page = await pageOf(scope, issuer, server, 'mallory');
  const lure = new URL(page);
  for (const name of ['returnTo', 'return_to', 'redirect_uri', 'redirect', 'next', 'url'])
    lure.searchParams.set(name, `${EVIL}/${name}`);
  const forged = {
    'x-forwarded-host': 'evil.example',
    'x-forwarded-proto': 'https',
    forwarded: 'host=evil.example;proto=https',
    referer: `${EVIL}/`,
  };
  const started = await startSignIn(server, lure, 'mallory', forged);
  const redirectUri = started.authorize.searchParams.get('redirect_uri') ?? '';
  const callback = new URL(started.callback);
  for (const name of ['returnTo', 'next', 'url']) callback.searchParams.set(name, `${EVIL}/${name}`);
  const done = await get(server, callback, { cookie: started.flow, ...forged });
  const withoutFlow = await get(server, callback, forged);
  const targets = [redirectUri, done.location, withoutFlow.location].filter((target) => target !== undefined);
  const offSite = targets.filter((target) => new URL(target, page).origin !== page.origin);
  return [
    outcome(
      'sign-in return target',
      offSite.length === 0 && done.status === 303 && done.location === page.pathname,
      `6 return parameters on the page and 3 on the callback, forwarded host and referer headers: the provider's redirect_uri ${redirectUri}, after sign-in ${done.status} to ${done.location ?? 'nowhere'}, without the flow ${withoutFlow.status}; ${offSite.length} off-site targets (limit 0)`,
    ),
  ];
}

async function callbackFlood(scope: Scope): Promise<Outcome[]> {
  const issuer = await startIssuer(scope);
  const server = await signInServer(scope, issuer);
  const page = await pageOf(scope, issuer, server, 'mallory');
  const callbackPath = new URL(`${PAGES}/signed-in`, page);
  const bare: number[] = [];
  for (let index = 0; index < 100; index += 1) {
    const garbage = new URL(callbackPath);
    garbage.searchParams.set('code', `garbage-${index}`);
    garbage.searchParams.set('state', `state-${index}`);
    bare.push((await get(server, garbage)).status);
  }
  const bareCalls = issuer.counts.token;
  // The attacker's own flow cookie, kept and sent again with made-up codes.
  const { flow, callback } = await startSignIn(server, page, 'mallory');
  const withFlow: number[] = [];
  for (let index = 0; index < 20; index += 1) {
    const garbage = new URL(callback);
    garbage.searchParams.set('code', `garbage-${index}`);
    withFlow.push((await get(server, garbage, { cookie: flow })).status);
  }
  const flowCalls = issuer.counts.token - bareCalls;
  return [
    outcome(
      'sign-in callback flood without a flow',
      bareCalls === 0 && bare.every((status) => status === 400),
      `100 callbacks with made-up codes and states: ${bare.filter((status) => status === 400).length} answered 400, ${bareCalls} token endpoint calls (limit 0)`,
    ),
    outcome(
      'sign-in callback flood with a kept flow cookie',
      flowCalls <= withFlow.length && withFlow.every((status) => status === 400),
      `20 callbacks with made-up codes under one real flow cookie and its state: ${withFlow.filter((status) => status === 400).length} answered 400, ${flowCalls} token endpoint calls (finding: one call per callback while the flow cookie lives, 10 minutes; limit: at most one each)`,
    ),
  ];
}

/** Whether `cookie` carries `HttpOnly`, a `SameSite`, the `Path` `path`, and `Secure` exactly when `secure`. */
function flagged(cookie: string | undefined, path: string, secure: boolean): boolean {
  const attributes = (cookie ?? '').split(';').map((part) => part.trim().toLowerCase());
  return (
    attributes.includes('httponly') &&
    attributes.some((part) => part.startsWith('samesite=')) &&
    attributes.includes(`path=${path}`) &&
    attributes.includes('secure') === secure
  );
}

async function cookieFlags(scope: Scope): Promise<Outcome[]> {
  const issuer = await startIssuer(scope);
  const plain = await signInServer(scope, issuer);
  const overHttp = await signIn(plain, await pageOf(scope, issuer, plain, 'mallory'), 'mallory');
  // Behind a TLS proxy: links and cookies for the https origin, requests arriving with its Host.
  const origin = 'https://mcp.example.test';
  const https = await signInServer(
    scope,
    issuer,
    { publicOrigin: origin },
    { allowedHosts: ['127.0.0.1', 'mcp.example.test'] },
  );
  const page = await pageOf(scope, issuer, https, 'mallory');
  const host = { host: 'mcp.example.test' };
  const started = await startSignIn(https, page, 'mallory', host);
  const done = await get(https, started.callback, { ...host, cookie: started.flow });
  const checked = [
    ['flow over http', overHttp.toProvider.cookies.find((c) => c.startsWith(`${FLOW}=`)), `${PAGES}/signed-in`, false],
    ['session over http', overHttp.done.cookies.find((c) => c.startsWith(`${SESSION}=`)), PAGES, false],
    ['flow over https', started.toProvider.cookies.find((c) => c.startsWith(`${FLOW}=`)), `${PAGES}/signed-in`, true],
    ['session over https', done.cookies.find((c) => c.startsWith(`${SESSION}=`)), PAGES, true],
  ] as const;
  const wrong = checked.filter(([, cookie, path, secure]) => !flagged(cookie, path, secure)).map(([name]) => name);
  return [
    outcome(
      'sign-in cookie flags',
      wrong.length === 0 && started.callback.origin === origin,
      `${checked.length - wrong.length} of ${checked.length} cookies HttpOnly, SameSite, Path-scoped, Secure exactly on the https origin${wrong.length > 0 ? ` (wrong: ${wrong.join(', ')})` : ''}; e.g. ${(checked[3][1] ?? 'no session').replace(/=[^;]*/, '=…')} (limit: all)`,
    ),
  ];
}

/** The cases. */
export const signInCases: readonly Case[] = [
  { name: 'sign-in callback state', timeoutMs: 30_000, run: callbackState },
  { name: 'sign-in session cookies', timeoutMs: 30_000, run: sessionCookies },
  { name: 'sign-in return target', timeoutMs: 30_000, run: returnTarget },
  { name: 'sign-in callback flood', timeoutMs: 60_000, run: callbackFlood },
  { name: 'sign-in cookie flags', timeoutMs: 30_000, run: cookieFlags },
];
