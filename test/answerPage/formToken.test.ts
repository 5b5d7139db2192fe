import { describe, expect, it } from 'vitest';

import { cookieValue, createFormTokens, FORM_COOKIE } from '../../src/answerPage/formToken.js';

const key = (fill: number) => new Uint8Array(32).fill(fill);

function cookieOf(setCookie: string): string {
  return setCookie.split(';')[0]!;
}

describe('form tokens', () => {
  it('set a SameSite=Strict, HttpOnly cookie on the page path, Secure over https', () => {
    const tokens = createFormTokens(key(1));
    const minted = tokens.mint('page-a', '/mcp-resolve/answer/page-a', true, 600_000);
    expect(minted.setCookie).toMatch(
      new RegExp(
        `^${FORM_COOKIE}=[A-Za-z0-9_-]{22}; Path=/mcp-resolve/answer/page-a; Max-Age=600; HttpOnly; SameSite=Strict; Secure$`,
      ),
    );
    expect(tokens.mint('page-a', '/p', false, 200).setCookie).toMatch(/Max-Age=1; HttpOnly; SameSite=Strict$/);
  });

  it('verify a token with its own cookie, for its own page, under the same key only', () => {
    const tokens = createFormTokens(key(1));
    const minted = tokens.mint('page-a', '/p', false, 60_000);
    const other = tokens.mint('page-a', '/p', false, 60_000);
    const cookie = `theme=dark; ${cookieOf(minted.setCookie)}`;
    expect(tokens.verify('page-a', cookie, minted.token)).toBe(true);
    expect(tokens.verify('page-b', cookie, minted.token)).toBe(false);
    expect(tokens.verify('page-a', cookie, other.token)).toBe(false);
    expect(tokens.verify('page-a', null, minted.token)).toBe(false);
    expect(tokens.verify('page-a', cookie, null)).toBe(false);
    expect(tokens.verify('page-a', cookie, '')).toBe(false);
    expect(createFormTokens(key(2)).verify('page-a', cookie, minted.token)).toBe(false);
  });
});

describe('a page opened twice in one browser', () => {
  it('gets a token on the nonce its cookie already holds, so either tab can post', () => {
    const tokens = createFormTokens(key(1));
    const first = tokens.mint('page-a', '/p', false, 60_000);
    const cookie = cookieOf(first.setCookie);
    const second = tokens.mint('page-a', '/p', false, 60_000, cookie);
    expect(cookieOf(second.setCookie)).toBe(cookie);
    expect(tokens.verify('page-a', cookie, first.token)).toBe(true);
    expect(tokens.verify('page-a', cookie, second.token)).toBe(true);
    expect(cookieOf(tokens.mint('page-a', '/p', false, 60_000, `${FORM_COOKIE}=not-a-nonce`).setCookie)).not.toBe(
      `${FORM_COOKIE}=not-a-nonce`,
    );
  });
});

describe('cookieValue', () => {
  it('finds a cookie by its exact name', () => {
    expect(cookieValue('a=1; mcp-resolve-form=x; b=2', FORM_COOKIE)).toBe('x');
    expect(cookieValue('xmcp-resolve-form=y', FORM_COOKIE)).toBeUndefined();
    expect(cookieValue(null, FORM_COOKIE)).toBeUndefined();
  });
});
