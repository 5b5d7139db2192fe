import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';

import { z } from 'zod';

import { McpResolveError } from '../../src/errors.js';
import type { Era } from '../../src/index.js';
import { elicit, McpResolveServer, resolver } from '../../src/index.js';
import type { TestConnection } from '../../src/testing/index.js';
import { connectInProcess } from '../../src/testing/index.js';
import { answers, firstText } from './scripted.js';
import { askNameServer } from './fixtures/askNameServer.js';

const CALL = { timeout: 20_000 };

let open: TestConnection[] = [];
async function connect(...args: Parameters<typeof connectInProcess>): Promise<TestConnection> {
  const connection = await connectInProcess(...args);
  open.push(connection);
  return connection;
}
afterEach(async () => {
  await Promise.all(open.map((connection) => connection.close()));
  open = [];
});

describe('connectInProcess', () => {
  it.each<Era>(['modern', 'legacy'])('negotiates the %s era', async (era) => {
    const { client } = await connect(askNameServer, { era });
    expect(client.getProtocolEra()).toBe(era);
    expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
  });

  it('counts a modern question as a second tools/call leg and no push', async () => {
    const { client, counters } = await connect(askNameServer, { era: 'modern', elicit: answers.elicit });
    expect(counters.legs).toEqual({});
    const result = await client.callTool({ name: 'greet', arguments: {} }, CALL);
    expect(firstText(result)).toBe('hello Ann (modern)');
    expect(counters.legs).toEqual({ 'tools/call': 2 });
    expect(counters.questions).toEqual({ 'elicitation/create': 1 });
    expect(counters.pushes).toBe(0);
  });

  it('counts a legacy question as one push within one tools/call leg', async () => {
    const { client, counters } = await connect(askNameServer, { era: 'legacy', elicit: answers.elicit });
    const result = await client.callTool({ name: 'greet', arguments: {} }, CALL);
    expect(firstText(result)).toBe('hello Ann (legacy)');
    expect(counters.legs).toEqual({ 'tools/call': 1 });
    expect(counters.questions).toEqual({ 'elicitation/create': 1 });
    expect(counters.pushes).toBe(1);
  });

  it.each<[Era, number, number]>([
    ['modern', 2, 0],
    ['legacy', 1, 3],
  ])('answers elicitation, sampling and roots on %s', async (era, legs, pushes) => {
    const { client, counters } = await connect(askNameServer, { era, ...answers });
    const result = await client.callTool({ name: 'survey', arguments: {} }, CALL);
    expect(firstText(result)).toBe('Ann | roses | file:///work');
    expect(counters.legs).toEqual({ 'tools/call': legs });
    expect(counters.questions).toEqual({ 'elicitation/create': 1, 'sampling/createMessage': 1, 'roots/list': 1 });
    expect(counters.pushes).toBe(pushes);
  });

  it('resets every counter in place', async () => {
    const { client, counters } = await connect(askNameServer, { era: 'legacy', elicit: answers.elicit });
    const { legs } = counters;
    await client.callTool({ name: 'greet', arguments: {} }, CALL);
    await client.listTools();
    expect(legs).toEqual({ 'tools/call': 1, 'tools/list': 1 });
    counters.reset();
    expect(legs).toEqual({});
    expect(counters.questions).toEqual({});
    expect(counters.pushes).toBe(0);
  });

  it.each<Era>(['modern', 'legacy'])('derives capabilities from the answers given (%s)', async (era) => {
    const seen = async (options: Parameters<typeof connectInProcess>[1]): Promise<unknown> => {
      const { client } = await connect(askNameServer, options);
      return JSON.parse(firstText(await client.callTool({ name: 'capabilities', arguments: {} }, CALL)));
    };
    expect(await seen({ era })).toEqual({});
    expect(await seen({ era, elicit: answers.elicit })).toEqual({ elicitation: { form: {} } });
    expect(await seen({ era, ...answers })).toEqual({ elicitation: { form: {} }, sampling: {}, roots: {} });
    expect(await seen({ era, capabilities: { roots: { listChanged: true } } })).toEqual({
      roots: { listChanged: true },
    });
  });

  it('refuses explicit capabilities that do not cover an answer', async () => {
    const attempt = connectInProcess(askNameServer, { era: 'modern', capabilities: {}, elicit: answers.elicit });
    await expect(attempt).rejects.toBeInstanceOf(McpResolveError);
    await expect(attempt).rejects.toMatchObject({ code: 'invalid_options', message: /elicitation \(for elicit\)/ });
  });

  it('passes maxRounds to the modern round cap', async () => {
    const { client, counters } = await connect(askNameServer, { era: 'modern', maxRounds: 2, elicit: answers.elicit });
    const call = client.callTool({ name: 'insist', arguments: {} }, CALL);
    await expect(call).rejects.toBeInstanceOf(SdkError);
    await expect(call).rejects.toMatchObject({ code: SdkErrorCode.InputRequiredRoundsExceeded });
    expect(counters.legs['tools/call']).toBe(3);
    expect(counters.questions['elicitation/create']).toBe(2);
  });

  it('rejects an unknown era', async () => {
    // @ts-expect-error - 'ancient' is not an era
    const attempt = connectInProcess(askNameServer, { era: 'ancient' });
    await expect(attempt).rejects.toMatchObject({ code: 'invalid_options' });
  });

  it.each<Era>(['modern', 'legacy'])(
    'carries authInfo on every request of a %s call that asks, as an HTTP host would',
    async (era) => {
      const seen: unknown[] = [];
      const note = resolver({ name: 'note' }, () => elicit('Add a note', z.object({ note: z.string() })));
      const desk = new McpResolveServer({ name: 'desk', version: '1.0.0' }).tool(
        'whoami',
        { resolve: { note } },
        ({ note: { note: text } }, ctx) => {
          seen.push(ctx.http?.authInfo?.extra?.['sub']);
          return `${String(ctx.http?.authInfo?.extra?.['sub'])}: ${text}`;
        },
      );
      const authInfo = {
        token: 't',
        clientId: 'chat',
        scopes: ['desk'],
        extra: { iss: 'https://id.example', sub: 'ann' },
      };
      const { client } = await connect(desk, {
        era,
        authInfo,
        elicit: () => ({ action: 'accept', content: { note: 'hi' } }),
      });
      const result = await client.callTool({ name: 'whoami', arguments: {} }, CALL);
      expect(firstText(result)).toBe('ann: hi');
      expect(seen).toEqual(['ann']);
    },
  );
});
