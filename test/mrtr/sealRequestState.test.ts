/** The low-level tier's opt-in: `sealRequestState` as the SDK's own `requestState` hook, end to end. */
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import { inputRequired, isInputRequiredResult, McpServer } from '@modelcontextprotocol/server';
import { connectManual } from 'mcp-resolve/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { sealRequestState } from '../../src/mrtr/index.js';
import type { SdkRequestStateSealing } from '../../src/mrtr/index.js';
import { FROZEN, KEY_A } from '../state/helpers.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

interface Progress {
  readonly step: number;
}

/** A raw SDK server whose one tool keeps its progress in state sealed by `sealing`. */
function rawServer(sealing: SdkRequestStateSealing): McpServer {
  const server = new McpServer({ name: 'raw', version: '1.0.0' }, { requestState: sealing });
  server.registerTool('count', { description: 'Two rounds.' }, async (ctx) => {
    const progress = ctx.mcpReq.requestState<Progress>();
    if (progress === undefined) {
      return inputRequired({
        inputRequests: {
          go: inputRequired.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } }),
        },
        requestState: await sealing.mint({ step: 1 } satisfies Progress, ctx),
      });
    }
    return { content: [{ type: 'text', text: `resumed at step ${progress.step}` }] };
  });
  return server;
}

/** A modern client that does not fulfil input_required by itself. */
async function manualClient(sealing: SdkRequestStateSealing): Promise<Client> {
  const connection = await connectManual(() => rawServer(sealing));
  closers.push(() => connection.close());
  return connection.client;
}

async function callCount(client: Client, requestState?: string): Promise<unknown> {
  return client.request(
    {
      method: 'tools/call',
      params: {
        name: 'count',
        arguments: {},
        ...(requestState !== undefined && { requestState, inputResponses: { go: { action: 'accept', content: {} } } }),
      },
    },
    { allowInputRequired: true },
  );
}

describe('sealRequestState (the raw SDK tier)', () => {
  it('seals what a handler mints and hands the next round the verified value', async () => {
    const client = await manualClient(sealRequestState('raw', { keys: [KEY_A], onerror: () => {} }));
    const first = await callCount(client);
    expect(isInputRequiredResult(first)).toBe(true);
    const token = (first as InputRequiredResult).requestState ?? '';
    expect(token).not.toContain('step');
    const second = await callCount(client, token);
    expect(second).toMatchObject({ content: [{ type: 'text', text: 'resumed at step 1' }] });
  });

  it('answers a tampered or replayed token with the frozen error, the reason only in onerror', async () => {
    const warnings: string[] = [];
    const client = await manualClient(
      sealRequestState('raw', {
        keys: [KEY_A],
        onerror: (error, { method, name }) => warnings.push(`${method} ${name}: ${(error as Error).message}`),
      }),
    );
    const token = ((await callCount(client)) as InputRequiredResult).requestState ?? '';
    // Flips a middle character (always data) so the token really differs: the old choice, keyed on the
    // last character, left the token unchanged whenever its second-to-last already was the replacement.
    const middle = Math.floor(token.length / 2);
    const tampered = `${token.slice(0, middle)}${token[middle] === 'A' ? 'B' : 'A'}${token.slice(middle + 1)}`;
    const refusal = await callCount(client, tampered).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ProtocolError);
    expect({
      code: (refusal as ProtocolError).code,
      message: (refusal as ProtocolError).message,
      data: (refusal as ProtocolError).data,
    }).toEqual(FROZEN);

    await callCount(client, token); // the genuine token, once
    const replay = await callCount(client, token).catch((error: unknown) => error);
    expect((replay as ProtocolError).code).toBe(FROZEN.code);
    expect(warnings).toContain('tools/call requestState: requestState rejected on tools/call: tampered');
    expect(warnings).toContain('tools/call requestState: requestState rejected on tools/call: replayed');
    expect(warnings.join('\n')).not.toContain(token);
  });

  it('refuses an onerror that is not a function, naming the option', () => {
    // @ts-expect-error - JavaScript callers can pass anything
    expect(() => sealRequestState('raw', { keys: [KEY_A], onerror: { warn: console.warn } })).toThrow(
      expect.objectContaining({
        code: 'invalid_options',
        message: 'sealRequestState(): options.onerror must be a function (got object).',
        data: { api: 'sealRequestState()', option: 'onerror' },
      }),
    );
  });
});
