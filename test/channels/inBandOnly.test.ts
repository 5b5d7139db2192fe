/**
 * `elicit(..., { inBandOnly: true })` with answer pages on: a client that shows no forms (URL
 * elicitation only, or none) gets the -32021 capability error exactly as with the pages off (same
 * code, message and data), on both eras, and the tool body never runs; a question without the
 * option, on the same server, still goes to the page.
 */
import type { ClientCapabilities, ElicitRequest } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import { elicit, resolver } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { call, connect, ERAS, newServer, textOf } from '../resolvers/helpers.js';

const ORIGIN = 'https://desk.example.com';
const Approval = z.object({ approve: z.boolean().meta({ title: 'Approve' }) });

/** A refund desk whose `approve` question is in-band only and whose `note` question is not. */
function deskServer(withPages: boolean) {
  const runs = { body: 0 };
  const approval = resolver({ name: 'approval', args: { order_id: z.string() } }, ({ order_id }) =>
    elicit(`Approve the refund of ${order_id}?`, Approval, { inBandOnly: true }),
  );
  const note = resolver({ name: 'note', args: { order_id: z.string() } }, ({ order_id }) =>
    elicit(`A note for ${order_id}?`, z.object({ note: z.string() })),
  );
  // Anonymous in-process callers: the link reaches them only with anonymousLinksShareAnswers.
  const answerPage = { path: '/p', publicOrigin: ORIGIN, anonymousLinksShareAnswers: true };
  const server = newServer(withPages ? { answerPage } : {})
    .tool('refund', { input: { order_id: z.string() }, resolve: { approval } }, ({ approval: answer }) => {
      runs.body++;
      return answer.approve ? 'refunded' : 'kept';
    })
    .tool('annotate', { input: { order_id: z.string() }, resolve: { note } }, ({ note: answer }) => {
      runs.body++;
      return answer.note;
    });
  return { server, runs };
}

const CLIENTS: ReadonlyArray<readonly [string, ClientCapabilities]> = [
  ['URL elicitation only', { elicitation: { url: {} } }],
  ['no elicitation', {}],
];

/** The error of calling `refund` on a desk with or without pages, for a client that declared `capabilities`. */
async function refusal(era: (typeof ERAS)[number], capabilities: ClientCapabilities, withPages: boolean) {
  const { server, runs } = deskServer(withPages);
  let asked = 0;
  const connection = await connect(server, {
    era,
    capabilities,
    ...(capabilities.elicitation !== undefined && {
      elicit: () => {
        asked++;
        return { action: 'accept' as const };
      },
    }),
  });
  const error = await call(connection, 'refund', { order_id: 'ORD-7' }).then(
    (value) => expect.fail(`expected -32021, got ${JSON.stringify(value)}`),
    (reason: unknown) => reason,
  );
  expect([asked, runs.body]).toEqual([0, 0]);
  if (!(error instanceof ProtocolError)) return expect.fail(`expected a ProtocolError, got ${String(error)}`);
  return { code: error.code, message: error.message, data: error.data };
}

describe.each(ERAS)('an inBandOnly question with answer pages on (%s)', (era) => {
  it.each(CLIENTS)('refuses a client with %s with -32021, as with the pages off', async (_, capabilities) => {
    const refused = await refusal(era, capabilities, true);
    expect(refused.code).toBe(-32021);
    expect(refused.message).toContain("Client does not support elicitation (form mode), which resolver 'approval'");
    expect(refused.data).toEqual({ requiredCapabilities: { elicitation: { form: {} } } });
    expect(refused).toEqual(await refusal(era, capabilities, false));
  });

  it('leaves the other questions of the same server on the page', async () => {
    const { server, runs } = deskServer(true);
    const seen: ElicitRequest['params'][] = [];
    const urlOnly = await connect(server, {
      era,
      capabilities: { elicitation: { url: {} } },
      elicit: (params) => {
        seen.push(params);
        return { action: 'decline' };
      },
    });
    await call(urlOnly, 'annotate', { order_id: 'ORD-7' });
    expect(seen).toEqual([
      expect.objectContaining({
        mode: 'url',
        message: 'A note for ORD-7?',
        url: expect.stringMatching(/^https:\/\/desk\.example\.com\/p\/[\w-]{22}$/),
      }),
    ]);

    const none = await connect(server, { era, capabilities: {} });
    const link = await call(none, 'annotate', { order_id: 'ORD-7' });
    expect(link.isError).toBe(true);
    expect(textOf(link)).toMatch(
      /open it: https:\/\/desk\.example\.com\/p\/[\w-]{22}\nThe question: A note for ORD-7\?/,
    );
    expect(runs.body).toBe(0);
  });
});
