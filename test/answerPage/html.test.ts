import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { donePage, invalidLinkPage, notYoursPage, PAGE_CSP, refusedPostPage } from '../../src/answerPage/html.js';
import { FORM_STYLE } from '../../src/form/style.js';

describe('the page headers', () => {
  it('allow nothing but the inline style, posts to this origin, and no framing', async () => {
    const response = invalidLinkPage();
    const hash = createHash('sha256').update(FORM_STYLE).digest('base64');
    expect(PAGE_CSP).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    );
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-security-policy': PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'content-type': 'text/html; charset=utf-8',
    });
    expect(await response.text()).toContain(`<style>${FORM_STYLE}</style>`);
  });
});

describe('the plain pages', () => {
  it('say the link is no longer valid with 404, and nothing else', async () => {
    const response = invalidLinkPage();
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('<h1>This link is no longer valid</h1>');
    expect(html).not.toMatch(/<form|<script|<img|<link/);
  });

  it('refuse another account with 403 and a forged post with 403', async () => {
    expect(notYoursPage().status).toBe(403);
    expect(refusedPostPage().status).toBe(403);
    expect(await refusedPostPage().text()).toContain('This answer was not accepted');
  });

  it('confirm each action', async () => {
    expect(await donePage('accept').text()).toContain('your answer was saved');
    expect(await donePage('decline').text()).toContain('You declined');
    expect(await donePage('cancel').text()).toContain('You cancelled');
  });
});
