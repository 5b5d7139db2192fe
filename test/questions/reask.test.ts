/** Re-asking: an answer that fails its schema or the author's check is asked again with the reason, on both eras. */
import type { ElicitResult } from '@modelcontextprotocol/client';
import { elicit, McpResolveError, resolver } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  accept,
  asked,
  call,
  completed,
  connect,
  connectManual,
  ERAS,
  newServer,
  textOf,
} from '../resolvers/helpers.js';

const Quantity = z.object({ quantity: z.number().int().min(1) });

/** A tool asking for a quantity (with `options`), counting body runs. */
function quantityServer(options: Parameters<typeof elicit<typeof Quantity>>[2] = {}) {
  const runs = { body: 0 };
  const ask = resolver({ name: 'quantity' }, () => elicit('How many?', Quantity, options));
  const server = newServer().tool('order', { resolve: { q: ask } }, ({ q }) => {
    runs.body++;
    return `ordered ${q.quantity}`;
  });
  return { server, runs };
}

/** Answers from a list, recording each message the person was shown. */
function person(answers: ElicitResult[], messages: string[]) {
  return (params: { message: string }): ElicitResult => {
    messages.push(params.message);
    return answers.shift() ?? { action: 'cancel' };
  };
}

describe.each(ERAS)('re-asking (%s)', (era) => {
  it('asks again with the reason after an answer that fails the schema, then uses the corrected answer', async () => {
    const { server, runs } = quantityServer();
    const messages: string[] = [];
    const connection = await connect(server, {
      era,
      elicit: person([accept({ quantity: 0 }), accept({ quantity: 2 })], messages),
    });
    const result = await call(connection, 'order');
    expect(textOf(result)).toBe('ordered 2');
    expect(messages).toEqual(['How many?', 'The answer does not fit the form: check quantity.\n\nHow many?']);
    expect(runs.body).toBe(1);
    expect(connection.counters.legs['tools/call']).toBe(era === 'modern' ? 3 : 1);
    expect(connection.counters.pushes).toBe(era === 'modern' ? 0 : 2);
  });

  it('names a failing field by the title its form shows', async () => {
    const Titled = z.object({ quantity: z.number().int().min(1).meta({ title: 'How many mugs' }) });
    const ask = resolver({ name: 'quantity' }, () => elicit('How many?', Titled));
    const server = newServer().tool('order', { resolve: { q: ask } }, ({ q }) => `ordered ${q.quantity}`);
    const messages: string[] = [];
    const connection = await connect(server, {
      era,
      elicit: person([accept({ quantity: 0 }), accept({ quantity: 2 })], messages),
    });
    expect(textOf(await call(connection, 'order'))).toBe('ordered 2');
    expect(messages[1]).toBe('The answer does not fit the form: check "How many mugs".\n\nHow many?');
  });

  it('says what a field must look like when the answer misses its pattern (the pattern is not on the wire)', async () => {
    const CostCentre = z.object({
      centre: z
        .string()
        .regex(/^CC-\d{4}$/)
        .meta({ title: 'Cost centre' }),
    });
    const ask = resolver({ name: 'centre' }, () => elicit('Which cost centre?', CostCentre));
    const server = newServer().tool('file', { resolve: { c: ask } }, ({ c }) => `filed to ${c.centre}`);
    const messages: string[] = [];
    const shown: unknown[] = [];
    const answer = person([accept({ centre: 'marketing' }), accept({ centre: 'CC-1234' })], messages);
    const connection = await connect(server, {
      era,
      elicit: (params) => {
        shown.push('requestedSchema' in params ? params.requestedSchema.properties['centre'] : undefined);
        return answer(params);
      },
    });
    expect(textOf(await call(connection, 'file'))).toBe('filed to CC-1234');
    expect(shown[0]).toEqual({ type: 'string', title: 'Cost centre' });
    expect(messages[1]).toBe(
      'The answer does not fit the form: check "Cost centre" (it must look like CC-1234).\n\nWhich cost centre?',
    );
  });

  it("asks again with the author's reason when check rejects an answer", async () => {
    const { server } = quantityServer({
      check: ({ quantity }) => (quantity > 5 ? 'We only have 5 in stock.' : undefined),
    });
    const messages: string[] = [];
    const connection = await connect(server, {
      era,
      elicit: person([accept({ quantity: 9 }), accept({ quantity: 5 })], messages),
    });
    expect(textOf(await call(connection, 'order'))).toBe('ordered 5');
    expect(messages).toEqual(['How many?', 'We only have 5 in stock.\n\nHow many?']);
  });

  it('fails with the last reason once the attempts run out (default 3)', async () => {
    const { server, runs } = quantityServer({ check: () => 'Not today.' });
    const messages: string[] = [];
    const connection = await connect(server, {
      era,
      elicit: person([accept({ quantity: 0 }), accept({ quantity: 1 }), accept({ quantity: 2 })], messages),
    });
    const result = await call(connection, 'order');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Resolver 'quantity': the answer was not accepted. Not today.");
    expect(messages).toEqual([
      'How many?',
      'The answer does not fit the form: check quantity.\n\nHow many?',
      'Not today.\n\nHow many?',
    ]);
    expect(runs.body).toBe(0);
  });

  it('attempts: 1 never asks again; a decline is never re-asked', async () => {
    const once = quantityServer({ attempts: 1 });
    const messages: string[] = [];
    const connection = await connect(once.server, { era, elicit: person([accept({ quantity: 0 })], messages) });
    const result = await call(connection, 'order');
    expect(textOf(result)).toBe(
      "Resolver 'quantity': the answer does not match the requested schema. The answer does not fit the form: check quantity.",
    );
    expect(messages).toEqual(['How many?']);

    const declined: string[] = [];
    const other = await connect(quantityServer().server, { era, elicit: person([{ action: 'decline' }], declined) });
    expect(textOf(await call(other, 'order'))).toMatch(
      /^Resolver for parameter 'q' could not resolve: elicitation was decline\. "How many\?" was declined/,
    );
    expect(declined).toEqual(['How many?']);
  });
});

describe('re-asking on the wire (modern)', () => {
  it('re-asks under the same key in the next round, and the corrected answer completes the call', async () => {
    const client = await connectManual(quantityServer().server);
    const first = asked(await client.round('order', {}));
    const second = asked(
      await client.round(
        'order',
        {},
        {
          requestState: first.requestState,
          inputResponses: { quantity: { action: 'accept', content: { quantity: 'many' } } },
        },
      ),
    );
    expect(Object.keys(second.inputRequests)).toEqual(['quantity']);
    expect(second.inputRequests.quantity).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'The answer does not fit the form: check quantity.\n\nHow many?' },
    });
    const third = completed(
      await client.round(
        'order',
        {},
        {
          requestState: second.requestState,
          inputResponses: { quantity: { action: 'accept', content: { quantity: 4 } } },
        },
      ),
    );
    expect(textOf(third)).toBe('ordered 4');
  });
});

describe('elicit() options', () => {
  it.each([0, 1.5, -1])('refuses attempts = %s with an exact message', (attempts) => {
    expect(() => elicit('?', Quantity, { attempts })).toThrow(McpResolveError);
    expect(() => elicit('?', Quantity, { attempts })).toThrow(
      `elicit(): options.attempts must be a whole number of 1 or more (got ${attempts}).`,
    );
  });
});
