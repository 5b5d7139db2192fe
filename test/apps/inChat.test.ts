/**
 * The question app in the chat, in process with the official client on both eras: a client that
 * renders apps and shows no forms sees the app on tools that may ask, a call that asks ends with
 * the question for the app, the app answers through `mcp_resolve_answer` (bound to the call,
 * single use, checked as the page checks), and the call made again with the ticket goes on with
 * the result an in-band answer gives.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import { ANSWER_TOOL, APP_MIME_TYPE, QUESTION_APP_URI, QUESTION_META, TICKET_META } from '../../src/apps/wire.js';
import type { AppQuestion } from '../../src/apps/wire.js';
import { CLOSED_QUESTION } from '../../src/apps/answerTool.js';
import { call, connect, ERAS, textOf } from '../resolvers/helpers.js';
import { APPS_ONLY, FORMS_AND_APPS, OVER_400, refundDesk, submission } from './helpers.js';

type Connection = Awaited<ReturnType<typeof connect>>;

/** The question a hand-off result carries for the app (fails the test when there is none). */
function questionOf(result: CallToolResult): AppQuestion {
  const question = result._meta?.[QUESTION_META] as AppQuestion | undefined;
  if (question === undefined) return expect.fail(`expected a question for the app, got: ${textOf(result)}`);
  return question;
}

/** Answers through the app-only tool, as the app does. */
async function answer(connection: Connection, page: string, form: string) {
  const result = await connection.client.callTool({ name: ANSWER_TOOL, arguments: { page, form } });
  return result.structuredContent as { status: string; form?: string; message?: string; action?: string };
}

/** Makes the call again with the ticket, as the app does once the answer is stored. */
function rerun(connection: Connection, question: AppQuestion) {
  return connection.client.callTool({
    name: question.tool,
    arguments: question.arguments as Record<string, unknown>,
    _meta: { [TICKET_META]: question.ticket },
  });
}

describe.each(ERAS)('the question app in the chat (%s)', (era) => {
  it('declares the app on tools that may ask, lists the resource and the app-only tool', async () => {
    const connection = await connect(refundDesk().server, { era, capabilities: APPS_ONLY });
    const { tools } = await connection.client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.refund?._meta).toEqual({ ui: { resourceUri: QUESTION_APP_URI }, 'ui/resourceUri': QUESTION_APP_URI });
    expect(byName.ping?._meta).toBeUndefined();
    expect(byName[ANSWER_TOOL]?._meta).toEqual({ ui: { resourceUri: QUESTION_APP_URI, visibility: ['app'] } });
    const { resources } = await connection.client.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: QUESTION_APP_URI, mimeType: APP_MIME_TYPE })]);
  });

  it('completes the refund: the question in the app, the answer through the tool, the call made again', async () => {
    const { server, runs } = refundDesk();
    const connection = await connect(server, { era, capabilities: APPS_ONLY });
    const first = await call(connection, 'refund', { order_id: 'ORD-7' });
    expect(first.isError).toBe(true);
    expect(textOf(first)).toContain('The person is asked a question in the app shown with this result');
    const question = questionOf(first);
    expect(question).toMatchObject({ tool: 'refund', arguments: { order_id: 'ORD-7' } });
    expect(question.form).toContain('Refund order ORD-7?');
    expect(question.form).toContain('<label class="field" for="field-0">Amount');
    expect(JSON.stringify(first.content)).not.toContain(question.ticket);
    expect(await answer(connection, question.page, submission({ amount: '40', reason: 'late' }))).toEqual({
      status: 'answered',
      action: 'accept',
    });
    const done = await rerun(connection, question);
    expect(done.isError).toBeFalsy();
    expect(textOf(done)).toBe('refunded 40 for late');
    expect(runs.body).toBe(1);
    // Single use: a second answer (a second app instance) is refused, nothing applied.
    expect(await answer(connection, question.page, submission({ amount: '500', reason: 'x' }))).toEqual({
      status: 'closed',
      message: CLOSED_QUESTION,
    });
  });

  it('shows the field error in the app and keeps the question open for a corrected answer', async () => {
    const connection = await connect(refundDesk().server, { era, capabilities: APPS_ONLY });
    const question = questionOf(await call(connection, 'refund', { order_id: 'ORD-8' }));
    const refused = await answer(connection, question.page, submission({ amount: '900', reason: 'late' }));
    expect(refused.status).toBe('invalid');
    expect(refused.form).toContain('Enter a whole number from 1 to 500.');
    expect(refused.form).toContain('value="900"');
    expect(await answer(connection, question.page, submission({ amount: '9', reason: 'late' }))).toMatchObject({
      status: 'answered',
    });
    expect(textOf(await rerun(connection, question))).toBe('refunded 9 for late');
  });

  it("asks again in the app, with the reason above the question, an answer the desk's own check refuses", async () => {
    const connection = await connect(refundDesk().server, { era, capabilities: APPS_ONLY });
    const question = questionOf(await call(connection, 'refund', { order_id: 'ORD-9' }));
    // The form takes 450 (up to 500); the desk's check does not.
    expect(await answer(connection, question.page, submission({ amount: '450', reason: 'late' }))).toMatchObject({
      status: 'answered',
    });
    const refused = await rerun(connection, question);
    expect(textOf(refused)).toContain(`The question: ${OVER_400}\n\nRefund order ORD-9?`);
    const again = questionOf(refused);
    expect(again.ticket).toBe(question.ticket);
    expect(again.page).not.toBe(question.page);
    // As an in-band re-ask shows it: the reason, a blank line, the question.
    expect(again.form).toContain(`<p class="message">${OVER_400}\n\nRefund order ORD-9?</p>`);
    // The page's own question carries the reason too: a refused submission's form still shows it.
    const invalid = await answer(connection, again.page, submission({ amount: '0', reason: 'late' }));
    expect(invalid.form).toContain(`<p class="message">${OVER_400}\n\nRefund order ORD-9?</p>`);
    await answer(connection, again.page, submission({ amount: '400', reason: 'late' }));
    expect(textOf(await rerun(connection, again))).toBe('refunded 400 for late');
  });

  it('finds no answer for a call without the ticket, and refuses one call the answer of another', async () => {
    const connection = await connect(refundDesk().server, { era, capabilities: APPS_ONLY });
    const mine = questionOf(await call(connection, 'refund', { order_id: 'ORD-1' }));
    const other = questionOf(await call(connection, 'refund', { order_id: 'ORD-2' }));
    expect(other.page).not.toBe(mine.page);
    await answer(connection, mine.page, submission({ amount: '5', reason: 'mine' }));
    // The model calling again on its own carries no ticket: the app is shown again.
    questionOf(await call(connection, 'refund', { order_id: 'ORD-1' }));
    // ORD-2's call made with ORD-1's ticket finds nothing of ORD-1's.
    const crossed = await rerun(connection, { ...other, ticket: mine.ticket });
    expect(questionOf(crossed).tool).toBe('refund');
    expect(textOf(await rerun(connection, mine))).toBe('refunded 5 for mine');
  });

  it.each(['decline', 'cancel'])('gives a %s the result the same answer in-band gives', async (action) => {
    const inBand = await connect(refundDesk().server, { era, elicit: () => ({ action: action as 'decline' }) });
    const expected = await call(inBand, 'refund', { order_id: 'ORD-3' });
    const connection = await connect(refundDesk().server, { era, capabilities: APPS_ONLY });
    const question = questionOf(await call(connection, 'refund', { order_id: 'ORD-3' }));
    expect(await answer(connection, question.page, `action=${action}`)).toEqual({ status: 'answered', action });
    const result = await rerun(connection, question);
    expect({ text: textOf(result), isError: result.isError === true }).toEqual({
      text: textOf(expected),
      isError: expected.isError === true,
    });
  });

  it('keeps a client that shows forms on the native form, without the app declared', async () => {
    let asked = 0;
    const connection = await connect(refundDesk().server, {
      era,
      capabilities: FORMS_AND_APPS,
      elicit: (params) => {
        asked++;
        expect(params._meta).toBeUndefined();
        return { action: 'accept', content: { amount: 3, reason: 'form' } };
      },
    });
    const { tools } = await connection.client.listTools();
    expect(tools.find((tool) => tool.name === 'refund')?._meta).toBeUndefined();
    expect(textOf(await call(connection, 'refund', { order_id: 'ORD-4' }))).toBe('refunded 3 for form');
    expect(asked).toBe(1);
  });

  it('falls back to the page for a client without the extension', async () => {
    const options = {
      apps: {},
      answerPage: { publicOrigin: 'https://desk.example.com', anonymousLinksShareAnswers: true },
    };
    const connection = await connect(refundDesk(options).server, { era, capabilities: {} });
    const result = await call(connection, 'refund', { order_id: 'ORD-5' });
    expect(textOf(result)).toContain('https://desk.example.com/mcp-resolve/answer/');
    expect(result._meta?.[QUESTION_META]).toBeUndefined();
  });
});
