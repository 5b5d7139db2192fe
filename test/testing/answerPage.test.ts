/**
 * `answerPage` of `mcp-resolve/testing` against a real server in process: the fetch handler of
 * `createDualEraHandler` with `answerPage` on, a client without elicitation that gets the link in a
 * tool result, and the page answered without a browser (accept, decline, cancel, a refused value,
 * a used link).
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';

import { createDualEraHandler } from '../../src/hosting/index.js';
import type { DualEraHandler } from '../../src/hosting/index.js';
import { elicit, McpResolveServer, resolver } from '../../src/index.js';
import type { AnsweredPage, PageAction, TestConnection } from '../../src/testing/index.js';
import { answerPage, connectHttp } from '../../src/testing/index.js';

const Ticket = z.object({
  ticket: z
    .string()
    .regex(/^T-\d{4}$/)
    .meta({ title: 'Ticket number' }),
  seats: z.number().int().min(1).max(10).meta({ title: 'Seats' }),
});

function ticketDesk(): McpResolveServer {
  const ticket = resolver({ name: 'ticket' }, () => elicit('Which ticket, and how many seats?', Ticket));
  // An anonymous client without elicitation gets the link only with the option that shares it.
  const options = {
    requestState: { keys: [new Uint8Array(32).fill(7)] },
    answerPage: { anonymousLinksShareAnswers: true },
  };
  return new McpResolveServer({ name: 'tickets', version: '1.0.0' }, options).tool(
    'book',
    { input: {}, resolve: { ticket } },
    ({ ticket: { ticket: id, seats } }) => ({ content: [{ type: 'text', text: `booked ${id} x${seats}` }] }),
  );
}

const ENDPOINT = new URL('http://localhost/mcp');

let handler: DualEraHandler | undefined;
let connection: TestConnection | undefined;
afterEach(async () => {
  await connection?.close();
  await handler?.close();
});

/** The server in process, and a modern client without elicitation talking to it. */
async function setup(): Promise<{
  call(): Promise<string>;
  answer(link: string, action: PageAction): Promise<AnsweredPage>;
}> {
  const served = createDualEraHandler(ticketDesk());
  handler = served;
  connection = await connectHttp(ENDPOINT, {
    era: 'modern',
    capabilities: {},
    transportOptions: {
      fetch: (input, init) => {
        const request = new Request(input, init);
        request.headers.set('host', ENDPOINT.host);
        return served.fetch(request);
      },
    },
  });
  const { client } = connection;
  return {
    answer: (link, action) => answerPage(link, action, { via: served }),
    async call() {
      const result = await client.callTool({ name: 'book', arguments: {} });
      return (result.content as Array<{ text?: string }>)[0]?.text ?? '';
    },
  };
}

const linkIn = (text: string): string => /https?:\/\/\S+/.exec(text)?.[0] ?? 'no link';

describe('answerPage (testing)', () => {
  it('accepts values, and the same call goes on with them', async () => {
    const desk = await setup();
    const link = linkIn(await desk.call());
    const page = await desk.answer(link, { action: 'accept', content: { ticket: 'T-1234', seats: 2 } });
    expect(page).toEqual({
      status: 200,
      saved: true,
      heading: 'Thank you, your answer was saved',
      summary: undefined,
      fieldErrors: {},
    });
    expect(await desk.call()).toBe('booked T-1234 x2');
  });

  it.each([
    ['decline', 'You declined'],
    ['cancel', 'You cancelled'],
  ] as const)('%ss, and the call ends as a declined question ends it', async (action, heading) => {
    const desk = await setup();
    const link = linkIn(await desk.call());
    expect(await desk.answer(link, { action })).toMatchObject({
      status: 200,
      saved: true,
      heading,
    });
    expect(await desk.call()).toContain(action === 'decline' ? 'declined' : 'cancel');
  });

  it('returns what the page said of a value it refuses, and the link still takes a good one', async () => {
    const desk = await setup();
    const link = linkIn(await desk.call());
    const refused = await desk.answer(link, { action: 'accept', content: { ticket: '1234', seats: 11 } });
    expect(refused).toEqual({
      status: 422,
      saved: false,
      heading: 'A question for you',
      summary: 'The answer does not fit the form: check "Ticket number", "Seats".',
      fieldErrors: {
        ticket: 'It must look like T-1234.',
        seats: 'Enter a whole number from 1 to 10.',
      },
    });
    const page = await desk.answer(link, { action: 'accept', content: { ticket: 'T-0042', seats: 1 } });
    expect(page.saved).toBe(true);
    expect(await desk.answer(link, { action: 'cancel' })).toMatchObject({
      status: 404,
      saved: false,
      heading: 'This link is no longer valid',
    });
  });

  it('throws for a link that is not an answer page, and for content a form cannot carry', async () => {
    const desk = await setup();
    const link = linkIn(await desk.call());
    await expect(desk.answer(link, { action: 'accept', content: { ticket: { id: 1 } } })).rejects.toThrow(
      'answerPage(): content.ticket must be a string, a number, a boolean or a list of strings (got object).',
    );
    const notAPage = { fetch: () => Promise.resolve(new Response('<h1>Hello</h1>')) };
    await expect(answerPage(link, { action: 'cancel' }, { via: notAPage })).rejects.toThrow(
      "answered 200 without an answer page's form",
    );
  });
});
