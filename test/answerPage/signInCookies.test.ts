import { describe, expect, it } from 'vitest';

import type { SignInScope } from '../../src/answerPage/signInCookies.js';
import {
  createSignInCookies,
  FLOW_COOKIE,
  FLOW_MS,
  SESSION_COOKIE,
  SESSION_MS,
} from '../../src/answerPage/signInCookies.js';

const KEY = new TextEncoder().encode('a form key of thirty-two bytes or more');
const SCOPE: SignInScope = {
  issuer: 'https://auth.example.com',
  clientId: 'desk-pages',
  path: '/mcp-resolve/answer',
  callbackPath: '/mcp-resolve/answer/signed-in',
};
const ADA = { iss: 'https://auth.example.com', sub: 'ada' };
const FLOW = { state: 'the-state', nonce: 'the-nonce', verifier: 'the-verifier', pageId: 'A'.repeat(22) };
const NOW = 1_800_000_000_000;

/** The `Cookie` header a browser sends back for a `Set-Cookie` value. */
function sent(setCookie: string): string {
  return setCookie.split(';')[0]!;
}

describe('the sign-in cookies', () => {
  it('carry the person for an hour, HttpOnly and SameSite=Lax on the pages path, Secure when asked', () => {
    const cookies = createSignInCookies(KEY, SCOPE);
    const setCookie = cookies.session(ADA, true, NOW);
    expect(setCookie).toMatch(
      new RegExp(
        `^${SESSION_COOKIE}=[\\w-]+\\.[\\w-]{43}; Path=/mcp-resolve/answer; Max-Age=${SESSION_MS / 1000}; HttpOnly; SameSite=Lax; Secure$`,
      ),
    );
    expect(cookies.session(ADA, false, NOW)).not.toContain('Secure');
    expect(cookies.person(sent(setCookie), NOW + 1000)).toEqual(ADA);
    expect(cookies.person(`other=1; ${sent(setCookie)}`, NOW + SESSION_MS - 1)).toEqual(ADA);
    expect(cookies.person(sent(setCookie), NOW + SESSION_MS)).toBeUndefined();
  });

  it('carry a flow for ten minutes on the callback path, and clear it', () => {
    const cookies = createSignInCookies(KEY, SCOPE);
    const setCookie = cookies.flow(FLOW, false, NOW);
    expect(setCookie).toMatch(
      new RegExp(
        `^${FLOW_COOKIE}=[\\w-]+\\.[\\w-]{43}; Path=/mcp-resolve/answer/signed-in; Max-Age=${FLOW_MS / 1000}; HttpOnly; SameSite=Lax$`,
      ),
    );
    expect(cookies.flowOf(sent(setCookie), NOW)).toEqual(FLOW);
    expect(cookies.flowOf(sent(setCookie), NOW + FLOW_MS)).toBeUndefined();
    expect(cookies.clearFlow(true)).toBe(
      `${FLOW_COOKIE}=; Path=/mcp-resolve/answer/signed-in; Max-Age=0; HttpOnly; SameSite=Lax; Secure`,
    );
  });

  it('refuse a changed value, a session offered as a flow, and nothing at all', () => {
    const cookies = createSignInCookies(KEY, SCOPE);
    const value = sent(cookies.session(ADA, false, NOW)).slice(SESSION_COOKIE.length + 1);
    const [payload, mac] = value.split('.') as [string, string];
    const bob = Buffer.from(JSON.stringify([ADA.iss, 'bob', String(NOW + 60_000)])).toString('base64url');
    for (const forged of [`${bob}.${mac}`, `${payload}.${mac.slice(1)}x`, payload, `${payload}.`, '', '.']) {
      expect(cookies.person(`${SESSION_COOKIE}=${forged}`, NOW)).toBeUndefined();
    }
    expect(cookies.flowOf(`${FLOW_COOKIE}=${value}`, NOW)).toBeUndefined();
    expect(cookies.person(null, NOW)).toBeUndefined();
    expect(cookies.flowOf('', NOW)).toBeUndefined();
  });

  it('are worthless under another key, provider, client or path', () => {
    const cookie = sent(createSignInCookies(KEY, SCOPE).session(ADA, false, NOW));
    const others = [
      createSignInCookies(new TextEncoder().encode('another form key of thirty-two bytes'), SCOPE),
      createSignInCookies(KEY, { ...SCOPE, issuer: 'https://other.example.com' }),
      createSignInCookies(KEY, { ...SCOPE, clientId: 'other-client' }),
      createSignInCookies(KEY, { ...SCOPE, path: '/other/answer' }),
    ];
    for (const other of others) expect(other.person(cookie, NOW)).toBeUndefined();
  });

  it('ignore a value past 2048 characters unread', () => {
    const cookies = createSignInCookies(KEY, SCOPE);
    const long = { ...ADA, sub: 's'.repeat(2000) };
    expect(cookies.person(sent(cookies.session(long, false, NOW)), NOW)).toBeUndefined();
    const fits = { ...ADA, sub: 's'.repeat(255) };
    expect(cookies.person(sent(cookies.session(fits, false, NOW)), NOW)).toEqual(fits);
  });
});
