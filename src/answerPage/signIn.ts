/**
 * The answer page signs the person in through the authorization server (OpenID Connect code flow
 * with PKCE, by the optional peer `openid-client`, loaded at the first sign-in): a page bound to a
 * person, opened without a session, redirects to the provider (state, nonce and PKCE verifier kept
 * in the flow cookie, bound to this browser); the provider sends the browser back to
 * `<path>/signed-in`, which checks the state against that cookie, redeems the code, verifies the ID
 * token, sets the session cookie (its issuer and subject) and clears the flow cookie, then returns
 * to the page, one of this server's own (only a page id travels through the provider). The page
 * then admits the person the question was asked of, by issuer and subject (`answersFor`), and
 * refuses anyone else with 403.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type * as OpenIdClient from 'openid-client';

import { invalidOption } from '../optionChecks.js';
import { loadPeer, peerMissing } from '../peer.js';
import { LOOPBACK_HOSTS } from '../questions/urlQuestion.js';
import { answersFor } from './browserUser.js';
import type { PageGate } from './gate.js';
import { notYoursPage, pageHeaders, plainPage } from './html.js';
import { createSignInCookies } from './signInCookies.js';

/** The `answerPage.signIn` option: the OpenID provider people sign in at, and this server's client there. */
export interface AnswerPageSignInOptions {
  /** The provider's issuer, e.g. `https://auth.example.com` (https, or http on a loopback host); its discovery document is read once. */
  readonly issuer: string;
  /** This server's client id at the provider, registered with the redirect URI `<publicOrigin><path>/signed-in`. */
  readonly clientId: string;
  /** The client's secret (sent by HTTP Basic); leave it out for a public client (PKCE only). */
  readonly clientSecret?: string;
}

/** The last path segment of the sign-in's callback, under the pages' path. */
export const SIGNED_IN_SEGMENT = 'signed-in';

/** What the sign-in gate needs from the handler. */
export interface SignInGateOptions {
  readonly signIn: AnswerPageSignInOptions;
  /** The form key, whose subkeys MAC the cookies. */
  readonly formKey: Uint8Array;
  readonly path: string;
  readonly publicOrigin: string | undefined;
  readonly secure: (url: URL) => boolean;
  /** Hands an error to `onerror` under a fresh ref, which it returns. */
  readonly report: (error: unknown) => string;
}

/** `signIn` checked (at construction), or `invalid_options` naming what is wrong. */
export function checkedSignIn(api: string, signIn: AnswerPageSignInOptions): AnswerPageSignInOptions {
  let url: URL | undefined;
  try {
    url = new URL(signIn.issuer);
  } catch {
    url = undefined;
  }
  const loopback = url?.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url === undefined || !(url.protocol === 'https:' || loopback)) {
    throw invalidOption(
      api,
      'answerPage.signIn',
      `must name an https issuer (got '${String(signIn.issuer)}')`,
      "Give the provider's issuer, as its discovery document names it; plain http is allowed only for localhost, 127.0.0.1 and [::1].",
    );
  }
  if (typeof signIn.clientId !== 'string' || signIn.clientId === '') {
    throw invalidOption(
      api,
      'answerPage.signIn',
      'must name a clientId',
      'Register this server as a client at the provider and give its client id.',
    );
  }
  const secret = signIn.clientSecret;
  if (secret !== undefined && (typeof secret !== 'string' || secret === '')) {
    throw invalidOption(
      api,
      'answerPage.signIn',
      'has an empty clientSecret',
      'Give the client secret the provider issued, or leave clientSecret out for a public client (an environment variable that is not set reads as empty).',
    );
  }
  return signIn;
}

function signInFailedPage(ref?: string): Response {
  const detail = ref === undefined ? '' : ` (ref ${ref})`;
  return plainPage(400, 'Sign-in did not complete', `Open the link again to sign in.${detail}`);
}

/** The peer and the provider's configuration. */
interface Discovered {
  readonly client: typeof OpenIdClient;
  readonly config: OpenIdClient.Configuration;
}

/** Loads `openid-client` and discovers the provider once (a failure is tried again by the next call). */
function discovered(signIn: AnswerPageSignInOptions): () => Promise<Discovered> {
  let loading: Promise<Discovered> | undefined;
  return () => {
    if (loading !== undefined) return loading;
    const attempt = (async () => {
      const client = await loadPeer('openid-client', 'answerPage.signIn', () =>
        import('openid-client').catch(peerMissing),
      );
      const secret = signIn.clientSecret;
      const auth = secret === undefined ? client.None() : client.ClientSecretBasic(secret);
      const insecure = new URL(signIn.issuer).protocol === 'http:';
      const config = await client.discovery(new URL(signIn.issuer), signIn.clientId, undefined, auth, {
        ...(insecure && { execute: [client.allowInsecureRequests] }),
      });
      return { client, config };
    })();
    loading = attempt;
    attempt.catch(() => {
      if (loading === attempt) loading = undefined;
    });
    return attempt;
  };
}

/** The gate that signs people in at the provider of `options.signIn`. */
export function signInGate(options: SignInGateOptions): PageGate {
  const { signIn, path, secure, report } = options;
  const callbackPath = `${path}/${SIGNED_IN_SEGMENT}`;
  const cookies = createSignInCookies(options.formKey, { ...signIn, path, callbackPath });
  const redirectUri = (url: URL): string => `${options.publicOrigin ?? url.origin}${callbackPath}`;
  const provider = discovered(signIn);

  async function toProvider(url: URL, pageId: string): Promise<Response> {
    const { client, config } = await provider();
    const flow = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      pageId,
    };
    const target = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(url),
      scope: 'openid',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
    });
    return new Response(null, {
      status: 302,
      headers: pageHeaders({ Location: target.href, 'Set-Cookie': cookies.flow(flow, secure(url)) }),
    });
  }

  async function callback(request: Request, url: URL): Promise<Response> {
    const flow = cookies.flowOf(request.headers.get('cookie'));
    const failed = (ref?: string): Response => {
      const page = signInFailedPage(ref);
      page.headers.set('Set-Cookie', cookies.clearFlow(secure(url)));
      return page;
    };
    if (flow === undefined || url.searchParams.get('state') !== flow.state) return failed();
    const { client, config } = await provider();
    const current = new URL(redirectUri(url));
    current.search = url.search;
    let claims: Record<string, unknown> | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      // The provider said no (the person declined, a code used twice): sign in again. Anything else is a 503.
      if (!(error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError))
        throw error;
      const code = /^[\w.-]{1,64}$/.test(error.error) ? error.error : 'an unreadable error code';
      return failed(report(new Error(`the provider refused the sign-in: ${code}`, { cause: error })));
    }
    const { iss, sub } = claims ?? {};
    if (typeof iss !== 'string' || typeof sub !== 'string' || sub === '' || sub.length > 255) return failed();
    // The flow cookie is cleared with the session set. Session last: a host that keeps only the last
    // of several Set-Cookie headers (the SDK's Node adapter) still signs the person in, and leaves the
    // flow cookie to expire, worthless once its code is redeemed (the provider takes a code once).
    const headers = pageHeaders({ Location: `${path}/${flow.pageId}`, 'Set-Cookie': cookies.clearFlow(secure(url)) });
    headers.append('Set-Cookie', cookies.session({ iss, sub }, secure(url)));
    return new Response(null, { status: 303, headers });
  }

  return {
    async admit(request, url, page, pageId) {
      if (page.principal === undefined) return undefined;
      const person = cookies.person(request.headers.get('cookie'));
      if (person === undefined) {
        if (request.method.toUpperCase() === 'GET') return toProvider(url, pageId);
        return plainPage(401, 'Your sign-in has expired', 'Open the link again to sign in, then answer.');
      }
      const user: AuthInfo = { token: '', clientId: signIn.clientId, scopes: [], extra: { ...person } };
      return answersFor(page.principal, user) ? undefined : notYoursPage();
    },
    async route(request, url) {
      if (url.pathname !== callbackPath) return undefined;
      if (request.method.toUpperCase() !== 'GET') {
        return plainPage(405, 'Method not allowed', 'Open the link in your browser.', { Allow: 'GET' });
      }
      return callback(request, url);
    },
  };
}
