/**
 * The deck over real transports: E (stateless), H (frame in memory) and J (journal) over stdio
 * (a spawned server process) and every option over HTTP, on both eras; and a fleet behind HTTP
 * where every request reaches a brand-new server.
 */
import { fileURLToPath } from 'node:url';

import type { TestConnection } from 'mcp-resolve/testing';
import { connectHttp, connectStdio } from 'mcp-resolve/testing';
import { CONTINUATION_GONE } from 'mcp-resolve/mrtr';
import { describe, expect, it } from 'vitest';

import type { OptionName } from '../../examples/mrtr-options/deck.js';
import { OPTIONS } from '../../examples/mrtr-options/deck.js';
import { serveHttp } from '../../src/node/index.js';
import { answerUnits, onCleanup, SHARED, textOf, TOKYO } from './helpers.js';

const SERVE = fileURLToPath(new URL('../../examples/mrtr-options/serve.ts', import.meta.url));

/** What a legacy client gets, per option (the README's last column). */
const LEGACY_ASKS: Record<OptionName, boolean> = {
  e: false,
  a: true,
  b: true,
  c: true,
  d: true,
  f: false,
  g: false,
  h: false,
  j: true,
};

/** The audits a modern call costs, per option (the footgun column). */
const MODERN_AUDITS: Record<OptionName, number> = { e: 1, a: 1, b: 2, c: 1, d: 1, f: 1, g: 1, h: 1, j: 1 };

/** One call, with the audit counter read through the server's own `audit_count` tool (it may live in another process). */
async function callRemote(connection: TestConnection): Promise<{ text: string; questions: number; audits: number }> {
  const read = async () => Number(textOf(await connection.client.callTool({ name: 'audit_count', arguments: {} })));
  const before = await read();
  connection.counters.reset();
  const result = await connection.client.callTool({ name: 'weather', arguments: TOKYO });
  const questions = connection.counters.questions['elicitation/create'] ?? 0;
  expect(result.isError).not.toBe(true);
  return { text: textOf(result), questions, audits: (await read()) - before };
}

function expectedFor(name: OptionName, era: 'modern' | 'legacy') {
  if (era === 'modern') return { text: 'Weather in Tokyo: 72°F', questions: 1, audits: MODERN_AUDITS[name] };
  return LEGACY_ASKS[name]
    ? { text: 'Weather in Tokyo: 72°F', questions: 1, audits: 1 }
    : { text: 'Weather in Tokyo: 22°C', questions: 0, audits: 1 };
}

describe('over stdio (a spawned server process)', () => {
  const cases = (['e', 'h', 'j'] as const).flatMap((name) =>
    (['modern', 'legacy'] as const).map((era) => ({ name, era })),
  );

  it.concurrent.each(cases)('option $name, $era', async ({ name, era }) => {
    const connection = await connectStdio(process.execPath, ['--import', 'tsx', SERVE, name], {
      era,
      elicit: answerUnits('imperial'),
      stderr: 'ignore',
    });
    try {
      expect(await callRemote(connection)).toEqual(expectedFor(name, era));
    } finally {
      await connection.close();
    }
  });
});

describe('over HTTP (both eras on one URL)', () => {
  const cases = (Object.keys(OPTIONS) as OptionName[]).flatMap((name) =>
    (['modern', 'legacy'] as const).map((era) => ({ name, era })),
  );

  it.each(cases)('option $name, $era', async ({ name, era }) => {
    const handle = await serveHttp(OPTIONS[name].server(), { port: 0 });
    onCleanup(() => handle.close());
    const connection = await connectHttp(handle.url, { era, elicit: answerUnits('imperial') });
    onCleanup(() => connection.close());
    expect(await callRemote(connection)).toEqual(expectedFor(name, era));
  });
});

describe('a fleet behind HTTP: every request reaches a brand-new server sharing only the key', () => {
  it.each([
    { name: 'e' as const, text: 'Weather in Tokyo: 72°F', isError: false },
    { name: 'j' as const, text: 'Weather in Tokyo: 72°F', isError: false },
    { name: 'h' as const, text: CONTINUATION_GONE, isError: true },
  ])('option $name: $text', async ({ name, text, isError }) => {
    let instances = 0;
    const handle = await serveHttp(() => {
      instances += 1;
      return OPTIONS[name].server(SHARED).createServer();
    });
    onCleanup(() => handle.close());
    const connection = await connectHttp(handle.url, { era: 'modern', elicit: answerUnits('imperial') });
    onCleanup(() => connection.close());
    const created = instances;
    const result = await connection.client.callTool({ name: 'weather', arguments: TOKYO });
    expect({ text: textOf(result), isError: result.isError === true }).toEqual({ text, isError });
    expect(instances - created).toBe(2); // one per round: nothing but the sealed state connected them
  });
});
