/**
 * `answerApp` of `mcp-resolve/testing` against a real server in process, on both eras: an in-chat
 * question (a client that renders apps and shows no forms) answered, refused with its field's
 * error, declined, and closed once used; a SEP-3118 form question answered from `elicit` with the
 * `ElicitResult` the app gives the host; and what it refuses to answer.
 */
import type { ElicitRequest } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import { NOT_AN_APP_HOST } from '../../src/apps/answerTool.js';
import { CLOSED_QUESTION } from '../../src/apps/answerTool.js';
import type { AnsweredApp } from '../../src/testing/index.js';
import { answerApp } from '../../src/testing/index.js';
import { APPS_ONLY, OVER_400, refundDesk, SEP_3118 } from '../apps/helpers.js';
import { connect, ERAS, textOf } from '../resolvers/helpers.js';

const ACCEPT = { action: 'accept', content: { amount: 12, reason: 'late' } } as const;

describe.each(ERAS)('answerApp in the chat (%s)', (era) => {
  it('answers the question, makes the call again, and finds the question closed after', async () => {
    const { server, runs } = refundDesk();
    const connection = await connect(server, { era, capabilities: APPS_ONLY });
    const asked = await connection.client.callTool({
      name: 'refund',
      arguments: { order_id: 'ORD-1' },
    });
    const answered = await answerApp(connection.client, asked, ACCEPT);
    expect(answered.status).toBe('answered');
    expect(textOf((answered as Extract<AnsweredApp, { status: 'answered' }>).result)).toBe('refunded 12 for late');
    expect(runs.body).toBe(1);
    expect(await answerApp(connection.client, asked, ACCEPT)).toEqual({ status: 'closed', message: CLOSED_QUESTION });
  });

  it("returns a refused answer with the field's error, and the question takes a good one", async () => {
    const connection = await connect(refundDesk().server, { era, capabilities: APPS_ONLY });
    const asked = await connection.client.callTool({
      name: 'refund',
      arguments: { order_id: 'ORD-2' },
    });
    const refused = await answerApp(connection.client, asked, {
      action: 'accept',
      content: { amount: 900, reason: 'x' },
    });
    expect(refused).toEqual({
      status: 'invalid',
      summary: 'The answer does not fit the form: check "Amount".',
      fieldErrors: { amount: 'Enter a whole number from 1 to 500.' },
    });
    const declined = await answerApp(connection.client, asked, { action: 'decline' });
    expect(declined.status).toBe('answered');
    expect((declined as Extract<AnsweredApp, { status: 'answered' }>).result.isError).toBe(true);
  });
});

describe.each(ERAS)('answerApp on the next question of a call (%s)', (era) => {
  it("answers the question the call made again asks, here after the desk's own check refused", async () => {
    const connection = await connect(refundDesk().server, { era, capabilities: APPS_ONLY });
    const asked = await connection.client.callTool({ name: 'refund', arguments: { order_id: 'ORD-5' } });
    const first = await answerApp(connection.client, asked, {
      action: 'accept',
      content: { amount: 450, reason: 'x' },
    });
    if (first.status !== 'answered') throw new Error(`expected answered, got ${first.status}`);
    expect(textOf(first.result)).toContain(OVER_400);
    const second = await answerApp(connection.client, first.result, ACCEPT);
    expect(second.status === 'answered' && textOf(second.result)).toBe('refunded 12 for late');
  });
});

describe.each(ERAS)('answerApp on a SEP-3118 form question (%s)', (era) => {
  it('gives elicit the ElicitResult the server checked, a refused answer its field errors first', async () => {
    const outcomes: AnsweredApp[] = [];
    const connection = await connect(refundDesk().server, {
      era,
      capabilities: SEP_3118,
      elicit: async (params: ElicitRequest['params']) => {
        outcomes.push(
          await answerApp(connection.client, params, { action: 'accept', content: { amount: 0, reason: 'x' } }),
        );
        const checked = await answerApp(connection.client, params, ACCEPT);
        outcomes.push(checked);
        return checked.status === 'checked' ? checked.answer : { action: 'cancel' };
      },
    });
    const done = await connection.client.callTool({ name: 'refund', arguments: { order_id: 'ORD-3' } });
    expect(textOf(done)).toBe('refunded 12 for late');
    expect(outcomes).toEqual([
      {
        status: 'invalid',
        summary: 'The answer does not fit the form: check "Amount".',
        fieldErrors: { amount: 'Enter a whole number from 1 to 500.' },
      },
      { status: 'checked', answer: { action: 'accept', content: { amount: 12, reason: 'late' } } },
    ]);
  });
});

describe('answerApp refuses', () => {
  it('what carries no question for the app, and a client that renders no apps', async () => {
    const connection = await connect(refundDesk().server, { era: 'modern', capabilities: APPS_ONLY });
    const plain = await connection.client.callTool({ name: 'ping', arguments: {} });
    await expect(answerApp(connection.client, plain, ACCEPT)).rejects.toThrow(
      'answerApp(): what the client received carries no question for the app (_meta["io.github.mcp-resolve/question"] on a tool result, _meta["io.github.mcp-resolve/elicitation"] on a form question).',
    );
    const asked = await connection.client.callTool({
      name: 'refund',
      arguments: { order_id: 'ORD-4' },
    });
    const formsOnly = await connect(refundDesk().server, {
      era: 'modern',
      capabilities: { elicitation: { form: {} } },
    });
    await expect(answerApp(formsOnly.client, asked, ACCEPT)).rejects.toThrow(
      `answerApp(): mcp_resolve_answer failed: ${NOT_AN_APP_HOST}`,
    );
    await expect(answerApp(connection.client, asked, { action: 'accept', content: { amount: {} } })).rejects.toThrow(
      'answerApp(): content.amount must be a string, a number, a boolean or a list of strings (got object).',
    );
  });
});
