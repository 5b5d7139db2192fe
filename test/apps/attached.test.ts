/**
 * SEP-3118 in process with the official client on both eras: a client that declares form
 * elicitation and `elicitation` in the MCP Apps extension gets its form questions with the question
 * app attached (`_meta.ui.resourceUri`), the server declares the same, the answer is the standard
 * `ElicitResult`, validated and re-asked as in-band; any other client gets the plain form.
 */
import type { ElicitRequest } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import { QUESTION_APP_URI, UI_EXTENSION } from '../../src/apps/wire.js';
import { call, connect, ERAS, textOf } from '../resolvers/helpers.js';
import { FORMS_AND_APPS, refundDesk, SEP_3118 } from './helpers.js';

/** A SEP-3118 client of a fresh desk on `era` that answers each form with `content(n)` (n: the asking, from 1), and what it was asked. */
async function recorded(era: (typeof ERAS)[number], content: (asking: number) => Record<string, unknown>) {
  const seen: ElicitRequest['params'][] = [];
  const connection = await connect(refundDesk().server, {
    era,
    capabilities: SEP_3118,
    elicit: (params) => {
      seen.push(params);
      return { action: 'accept', content: content(seen.length) as { amount: number } };
    },
  });
  return { connection, seen };
}

describe.each(ERAS)('the question app attached to form questions (%s)', (era) => {
  it('attaches the app for a client that negotiated it, and reads the standard ElicitResult', async () => {
    const { connection, seen } = await recorded(era, () => ({ amount: 12, reason: 'app' }));
    expect(connection.client.getServerCapabilities()?.extensions?.[UI_EXTENSION]).toEqual({ elicitation: {} });
    expect(textOf(await call(connection, 'refund', { order_id: 'ORD-1' }))).toBe('refunded 12 for app');
    expect(seen).toHaveLength(1);
    expect(seen[0]?._meta?.ui).toEqual({ resourceUri: QUESTION_APP_URI });
    expect(seen[0]).toMatchObject({ message: 'Refund order ORD-1?', requestedSchema: { type: 'object' } });
  });

  it('re-asks an answer that does not fit, the app still attached, the reason in the message', async () => {
    const { connection, seen } = await recorded(era, (asking) => ({ amount: asking === 1 ? 9000 : 30, reason: 'app' }));
    expect(textOf(await call(connection, 'refund', { order_id: 'ORD-2' }))).toBe('refunded 30 for app');
    expect(seen).toHaveLength(2);
    expect(seen[1]?._meta?.ui).toEqual({ resourceUri: QUESTION_APP_URI });
    expect(seen[1]?.message).toContain('Refund order ORD-2?');
    expect(seen[1]?.message).not.toBe(seen[0]?.message);
  });

  it('refuses a non-standard result like any malformed answer', async () => {
    const connection = await connect(refundDesk().server, {
      era,
      capabilities: SEP_3118,
      elicit: () => ({ action: 'submit', values: {} }) as never,
    });
    const outcome = await call(connection, 'refund', { order_id: 'ORD-3' }).then(
      (result) => ({ error: result.isError === true, text: textOf(result) }),
      (error: unknown) => ({ error: true, text: String(error) }),
    );
    expect(outcome.error).toBe(true);
    expect(outcome.text).not.toContain('refunded');
  });

  it('leaves the form plain for a client that did not negotiate it, and declares nothing with attachToForms off', async () => {
    const seen: ElicitRequest['params'][] = [];
    const elicit = (params: ElicitRequest['params']) => {
      seen.push(params);
      return { action: 'accept' as const, content: { amount: 1, reason: 'plain' } };
    };
    const plain = await connect(refundDesk().server, { era, capabilities: FORMS_AND_APPS, elicit });
    await call(plain, 'refund', { order_id: 'ORD-4' });
    const off = await connect(refundDesk({ apps: { attachToForms: false } }).server, {
      era,
      capabilities: SEP_3118,
      elicit,
    });
    expect(off.client.getServerCapabilities()?.extensions?.[UI_EXTENSION]).toBeUndefined();
    await call(off, 'refund', { order_id: 'ORD-5' });
    expect(seen.map((params) => params._meta)).toEqual([undefined, undefined]);
  });
});
