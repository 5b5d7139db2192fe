import { describe, expect, it } from 'vitest';

import type { AnswerPage } from '../../src/pageStore/store.js';
import { checkSubmission } from '../../src/form/submission.js';
import { ALICE_CALL, REFUND_QUESTION, refundForm } from '../answerPage/helpers.js';

const PAGE: AnswerPage = { ...ALICE_CALL, ...REFUND_QUESTION, pageId: 'p'.repeat(22), expiresAt: Date.now() + 60_000 };

describe('checkSubmission', () => {
  it('accepts a valid answer as the content an in-band client sends', () => {
    expect(checkSubmission(PAGE, refundForm(), 65_536)).toEqual({
      ok: true,
      answer: { action: 'accept', content: { amount: 120, reason: 'damaged', email: 'ada@example.com', notify: true } },
    });
  });

  it('takes decline and cancel without reading the fields', () => {
    expect(checkSubmission(PAGE, refundForm({ action: 'decline', 'field.amount': 'x' }), 65_536)).toEqual({
      ok: true,
      answer: { action: 'decline' },
    });
    expect(checkSubmission(PAGE, new URLSearchParams('action=cancel'), 65_536)).toMatchObject({
      ok: true,
      answer: { action: 'cancel' },
    });
  });

  it('refuses what the schema refuses, naming each field to fix', () => {
    const checked = checkSubmission(
      PAGE,
      refundForm({ 'field.amount': '9000', 'field.email': 'not-an-address', 'field.reason': undefined }),
      65_536,
    );
    expect(checked).toEqual({
      ok: false,
      summary: 'The answer does not fit the form: check "Amount (EUR)", "Reason", "Receipt to".',
      fieldErrors: {
        amount: 'Enter a number from 1 to 500.',
        reason: 'Choose one of the options.',
        email: 'Enter an email address, like name@example.com.',
      },
    });
  });

  it('names a number it cannot read before asking the schema', () => {
    expect(checkSubmission(PAGE, refundForm({ 'field.amount': '12abc' }), 65_536)).toEqual({
      ok: false,
      summary: undefined,
      fieldErrors: { amount: 'Enter a number.' },
    });
  });

  it('holds the answer to maxAnswerBytes, as in-band', () => {
    const checked = checkSubmission(PAGE, refundForm({ 'field.note': 'x'.repeat(500) }), 300);
    expect(checked).toMatchObject({ ok: false, fieldErrors: {} });
    expect(!checked.ok && checked.summary).toMatch(
      /^The answer is too long \(\d+ bytes; this server takes at most 300\)\. Shorten it\.$/,
    );
  });

  it('refuses an unknown action', () => {
    expect(checkSubmission(PAGE, refundForm({ action: 'maybe' }), 65_536)).toMatchObject({
      ok: false,
    });
  });

  it('matches a pattern in linear time: a backtracking pattern and a long near-miss are refused at once', () => {
    const page: AnswerPage = {
      ...PAGE,
      requestedSchema: {
        type: 'object',
        properties: { code: { type: 'string', pattern: '^(a+)+$' } },
        required: ['code'],
      },
    };
    // A backtracking engine takes about 2^n steps on n letters and a miss: this would not end.
    const checked = checkSubmission(
      page,
      new URLSearchParams({ 'field.code': `${'a'.repeat(5000)}!`, action: 'accept' }),
      65_536,
    );
    expect(checked).toMatchObject({ ok: false, fieldErrors: { code: expect.any(String) } });
    expect(
      checkSubmission(page, new URLSearchParams({ 'field.code': 'a'.repeat(5000), action: 'accept' }), 65_536),
    ).toMatchObject({
      ok: true,
    });
  });
});
