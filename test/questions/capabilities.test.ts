/** resolvers.md §12 [L]: a question the client cannot answer refuses the call with -32021, on both eras. */
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { Sample } from 'mcp-resolve';
import { elicit, listRoots, resolver, sample } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { call, connect, ERAS, newServer, sampled, textOf } from '../resolvers/helpers.js';

const Pick = z.object({ pick: z.string() });

const MESSAGES: Sample['params']['messages'] = [{ role: 'user', content: { type: 'text', text: 'hi' } }];

/** One tool per question kind, each counting body runs, plus a tool that never asks. */
function gatedServer() {
  const runs = { body: 0 };
  const askName = resolver({ name: 'askName' }, () => elicit('Name?', Pick));
  const writePoem = resolver({ name: 'writePoem' }, () => sample({ messages: MESSAGES, maxTokens: 5 }));
  const planWithTools = resolver({ name: 'planWithTools' }, () =>
    sample({
      messages: MESSAGES,
      maxTokens: 5,
      tools: [{ name: 'lookup', inputSchema: { type: 'object', properties: {} } }],
      toolChoice: { mode: 'auto' },
    }),
  );
  const findRoots = resolver({ name: 'findRoots' }, () => listRoots());
  const plain = resolver({ name: 'plain' }, () => 'computed');
  const body = () => {
    runs.body++;
    return 'ran';
  };
  const server = newServer()
    .tool('elicitTool', { resolve: { v: askName } }, body)
    .tool('sampleTool', { resolve: { v: writePoem } }, body)
    .tool('sampleWithTools', { resolve: { v: planWithTools } }, body)
    .tool('rootsTool', { resolve: { v: findRoots } }, body)
    .tool('plainTool', { resolve: { v: plain } }, ({ v }) => v);
  return { server, runs };
}

/** The -32021 error of `promise`, or fails the test. */
async function capabilityError(promise: Promise<unknown>): Promise<ProtocolError> {
  const error = await promise.then(
    (value) => expect.fail(`expected a -32021 error, got ${JSON.stringify(value)}`),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  if (!(error instanceof ProtocolError)) return expect.fail('not a ProtocolError');
  expect(error.code).toBe(-32021);
  return error;
}

describe.each(ERAS)('capability gate (%s)', (era) => {
  it.each<[string, ClientCapabilities, Record<string, unknown>, RegExp, string]>([
    ['elicitTool', {}, { elicitation: { form: {} } }, /elicitation/, 'askName'],
    ['sampleTool', {}, { sampling: {} }, /sampling/, 'writePoem'],
    ['sampleWithTools', {}, { sampling: { tools: {} } }, /sampling/, 'planWithTools'],
    ['sampleWithTools', { sampling: {} }, { sampling: { tools: {} } }, /sampling with tools/, 'planWithTools'],
    ['rootsTool', {}, { roots: {} }, /roots/, 'findRoots'],
  ])(
    '[L1] %s with capabilities %j is refused with -32021 and data.requiredCapabilities %j, naming capability and resolver',
    async (tool, capabilities, required, capabilityName, resolverName) => {
      const { server, runs } = gatedServer();
      const connection = await connect(server, { era, capabilities });
      const error = await capabilityError(call(connection, tool));
      expect(error.data).toEqual({ requiredCapabilities: required });
      expect(error.message).toMatch(capabilityName);
      expect(error.message).toContain(resolverName);
      expect(runs.body).toBe(0);
      expect(connection.counters.questions).toEqual({});
      expect(connection.counters.pushes).toBe(0);
    },
  );

  it('[L2] a bare `elicitation: {}` counts as form support', async () => {
    const { server, runs } = gatedServer();
    const connection = await connect(server, {
      era,
      capabilities: { elicitation: {} },
      elicit: () => ({ action: 'accept', content: { pick: 'Ann' } }),
    });
    expect(textOf(await call(connection, 'elicitTool'))).toBe('ran');
    expect(runs.body).toBe(1);
    expect(connection.counters.questions).toEqual({ 'elicitation/create': 1 });
  });

  it('[L2] url-only elicitation support does not count as form support', async () => {
    const { server, runs } = gatedServer();
    const connection = await connect(server, { era, capabilities: { elicitation: { url: {} } } });
    const error = await capabilityError(call(connection, 'elicitTool'));
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: { form: {} } } });
    expect(runs.body).toBe(0);
  });

  it('[L2] sampling with tools is answered when the client declares sampling.tools', async () => {
    const { server } = gatedServer();
    const connection = await connect(server, {
      era,
      capabilities: { sampling: { tools: {} } },
      sample: () => sampled('planned'),
    });
    expect(textOf(await call(connection, 'sampleWithTools'))).toBe('ran');
  });

  it('[L3] the tool body never runs, and the same connection keeps serving other calls', async () => {
    const { server, runs } = gatedServer();
    const connection = await connect(server, { era, capabilities: {} });
    await capabilityError(call(connection, 'elicitTool'));
    await capabilityError(call(connection, 'rootsTool'));
    expect(runs.body).toBe(0);
    expect(textOf(await call(connection, 'plainTool'))).toBe('computed');
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('elicitTool');
    await capabilityError(call(connection, 'elicitTool'));
    expect(runs.body).toBe(0);
  });
});
