import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';

import type { AnswerPage } from '../../src/answerPage/store.js';
import { checkSubmission } from '../../src/form/submission.js';
import { formQuestion } from '../../src/questions/markers.js';
import type * as readModule from '../../src/questions/read.js';
import { ALICE_CALL, REFUND_QUESTION, refundForm, wireSchemaOf } from '../answerPage/helpers.js';

const PAGE: AnswerPage = { ...ALICE_CALL, ...REFUND_QUESTION, pageId: 'p'.repeat(22), expiresAt: Date.now() + 60_000 };

describe('checkSubmission', () => {
  it('accepts a valid answer as the content an in-band client sends', async () => {
    expect(await checkSubmission(PAGE, refundForm(), 65_536, 'answer page')).toEqual({
      ok: true,
      answer: { action: 'accept', content: { amount: 120, reason: 'damaged', email: 'ada@example.com', notify: true } },
    });
  });

  it('takes decline and cancel without reading the fields', async () => {
    expect(
      await checkSubmission(PAGE, refundForm({ action: 'decline', 'field.amount': 'x' }), 65_536, 'answer page'),
    ).toEqual({
      ok: true,
      answer: { action: 'decline' },
    });
    expect(await checkSubmission(PAGE, new URLSearchParams('action=cancel'), 65_536, 'answer page')).toMatchObject({
      ok: true,
      answer: { action: 'cancel' },
    });
  });

  it('refuses what the schema refuses, with the reason readAnswer gives and each field to fix', async () => {
    const checked = await checkSubmission(
      PAGE,
      refundForm({ 'field.amount': '9000', 'field.email': 'not-an-address', 'field.reason': undefined }),
      65_536,
      'answer page',
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

  it('names a number it cannot read before asking the schema', async () => {
    expect(await checkSubmission(PAGE, refundForm({ 'field.amount': '12abc' }), 65_536, 'answer page')).toEqual({
      ok: false,
      summary: undefined,
      fieldErrors: { amount: 'Enter a number.' },
    });
  });

  it('holds the answer to maxAnswerBytes, as in-band', async () => {
    const checked = await checkSubmission(PAGE, refundForm({ 'field.note': 'x'.repeat(500) }), 300, 'answer page');
    expect(checked).toMatchObject({ ok: false, fieldErrors: {} });
    expect(!checked.ok && checked.summary).toMatch(
      /^The answer is too long \(\d+ bytes; this server takes at most 300\)\. Shorten it\.$/,
    );
  });

  it("runs a live question's own check when given it", async () => {
    const schema = z.object({ amount: z.number() });
    const page: AnswerPage = { ...PAGE, requestedSchema: wireSchemaOf(schema) };
    const ask = formQuestion<{ amount: number }>('Refund?', schema, {
      check: ({ amount }) => (amount > 100 ? 'Refunds over 100 EUR need a manager.' : undefined),
    });
    const form = new URLSearchParams({ 'field.amount': '120', action: 'accept' });
    expect(await checkSubmission(page, form, 65_536, 'answer page', ask)).toEqual({
      ok: false,
      summary: 'Refunds over 100 EUR need a manager.',
      fieldErrors: {},
    });
  });

  it('refuses an unknown action', async () => {
    expect(await checkSubmission(PAGE, refundForm({ action: 'maybe' }), 65_536, 'answer page')).toMatchObject({
      ok: false,
    });
  });
});

describe('the channel checkSubmission is given', () => {
  /** The errors `readAnswer` throws while `run` checks a submission (the module watched, on a fresh module graph). */
  async function readErrors(run: (check: typeof checkSubmission) => Promise<unknown>): Promise<unknown[]> {
    const errors: unknown[] = [];
    const read = '../../src/questions/read.js';
    vi.resetModules();
    vi.doMock(read, async (importOriginal) => {
      const original = await importOriginal<typeof readModule>();
      const readAnswer: typeof original.readAnswer = (...args) =>
        original.readAnswer(...args).catch((error: unknown) => {
          errors.push(error);
          throw error;
        });
      return { ...original, readAnswer };
    });
    try {
      await run((await import('../../src/form/submission.js')).checkSubmission);
    } finally {
      vi.doUnmock(read);
      vi.resetModules();
    }
    return errors;
  }

  it.each(['answer page', 'question app'] as const)('is named in the error readAnswer gives: %s', async (channel) => {
    const errors = await readErrors((check) => check(PAGE, refundForm({ 'field.amount': '9000' }), 65_536, channel));
    expect(errors.map((error) => (error as Error).message)).toEqual([
      `Resolver '${channel}': the answer does not match the requested schema. The answer does not fit the form.`,
    ]);
  });
});
