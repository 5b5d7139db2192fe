/**
 * The shared behaviour suite of the handler-shape deck: every option's server, the same client and
 * the same human, in process on both eras. What the README's table claims is checked here.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { McpResolveServer } from 'mcp-resolve';
import { connectHttp, MODERN_PROTOCOL_VERSION } from 'mcp-resolve/testing';
import { CONTINUATION_GONE } from 'mcp-resolve/mrtr';
import { describe, expect, it } from 'vitest';

import type { DeckOption, OptionName } from '../../examples/mrtr-options/deck.js';
import { NAIVE_E, OPTIONS } from '../../examples/mrtr-options/deck.js';
import { LEGACY_SHIM } from '../../examples/mrtr-options/option-a-legacy-shim.js';
import { askUnits, auditCount, WEATHER_INPUT } from '../../examples/mrtr-options/weather.js';
import { createSealer } from '../../src/state/sealer.js';
import {
  accept,
  acrossFreshInstances,
  answerAll,
  answerUnits,
  connect,
  connectManual,
  FROZEN,
  KEY,
  observe,
  onCleanup,
  pending,
  protocolError,
  SHARED,
  textOf,
  TOKYO,
} from './helpers.js';

/** The README's table, as numbers: what a legacy client gets, audits per call, and whether a fleet can serve it. */
interface Expected {
  /** `asks`: full elicitation on legacy; `default`: metric, no question. */
  readonly legacy: 'asks' | 'default';
  /** How many times the audit runs for one logical call. */
  readonly audits: { readonly modern: number; readonly legacy: number };
  /** Whether rounds may reach different instances (nothing kept in memory between rounds). */
  readonly stateless: boolean;
}

const TABLE: Record<OptionName, Expected> = {
  e: { legacy: 'default', audits: { modern: 1, legacy: 1 }, stateless: true },
  a: { legacy: 'asks', audits: { modern: 1, legacy: 1 }, stateless: true },
  b: { legacy: 'asks', audits: { modern: 2, legacy: 1 }, stateless: true },
  c: { legacy: 'asks', audits: { modern: 1, legacy: 1 }, stateless: true },
  d: { legacy: 'asks', audits: { modern: 1, legacy: 1 }, stateless: true },
  f: { legacy: 'default', audits: { modern: 1, legacy: 1 }, stateless: true },
  g: { legacy: 'default', audits: { modern: 1, legacy: 1 }, stateless: true },
  h: { legacy: 'default', audits: { modern: 1, legacy: 1 }, stateless: false },
  j: { legacy: 'asks', audits: { modern: 1, legacy: 1 }, stateless: true },
};

const CASES = (Object.keys(OPTIONS) as OptionName[]).map((name) => ({
  name,
  option: OPTIONS[name],
  expected: TABLE[name],
}));

describe.each(CASES)('option $name', ({ option, expected }) => {
  it('modern: the invariant — the same result and one question, whatever the shape', async () => {
    const seen = await observe(
      await connect(option.server().createServer, { era: 'modern', elicit: answerUnits('metric') }),
    );
    expect(seen).toMatchObject({ text: 'Weather in Tokyo: 22°C', isError: false, questions: 1, legs: 2, pushes: 0 });
  });

  it(`legacy: ${expected.legacy === 'asks' ? 'full elicitation by push' : 'the default, no question'}`, async () => {
    const seen = await observe(
      await connect(option.server().createServer, { era: 'legacy', elicit: answerUnits('imperial') }),
    );
    if (expected.legacy === 'asks') {
      expect(seen).toMatchObject({ text: 'Weather in Tokyo: 72°F', isError: false, questions: 1, legs: 1, pushes: 1 });
    } else {
      expect(seen).toMatchObject({ text: 'Weather in Tokyo: 22°C', isError: false, questions: 0, legs: 1, pushes: 0 });
    }
  });

  it(`footgun: the audit runs ${expected.audits.modern}× on modern, ${expected.audits.legacy}× on legacy`, async () => {
    const modern = await observe(
      await connect(option.server().createServer, { era: 'modern', elicit: answerUnits('metric') }),
    );
    const legacy = await observe(
      await connect(option.server().createServer, { era: 'legacy', elicit: answerUnits('metric') }),
    );
    expect({ modern: modern.audits, legacy: legacy.audits }).toEqual(expected.audits);
  });

  it(
    expected.stateless
      ? 'stateless: completes when every round reaches a fresh instance sharing only the key'
      : 'stateful: a round reaching another instance fails cleanly, telling the client to start over',
    async () => {
      const { result, rounds } = await acrossFreshInstances(
        () => option.server(SHARED).createServer,
        () => accept({ units: 'metric' }),
      );
      expect(rounds).toBe(2);
      if (expected.stateless) {
        expect({ text: textOf(result), isError: result.isError === true }).toEqual({
          text: 'Weather in Tokyo: 22°C',
          isError: false,
        });
      } else {
        expect({ text: textOf(result), isError: result.isError }).toEqual({ text: CONTINUATION_GONE, isError: true });
      }
    },
  );
});

describe('the naive E (the audit above the guard)', () => {
  it('runs the side effect twice on modern (once per round) and once on legacy', async () => {
    const modern = await observe(
      await connect(NAIVE_E.server().createServer, { era: 'modern', elicit: answerUnits('metric') }),
    );
    const legacy = await observe(
      await connect(NAIVE_E.server().createServer, { era: 'legacy', elicit: answerUnits('metric') }),
    );
    expect({ modern: modern.audits, legacy: legacy.audits, text: modern.text }).toEqual({
      modern: 2,
      legacy: 1,
      text: 'Weather in Tokyo: 22°C',
    });
  });
});

describe('what the client sees does not depend on the shape', () => {
  it('every option advertises the same tools with the same input schema', async () => {
    const listings = await Promise.all(
      CASES.map(async ({ option }) => {
        const { client } = await connect(option.server().createServer, { era: 'modern' });
        const { tools } = await client.listTools();
        return tools.map(({ name, inputSchema }) => ({ name, inputSchema }));
      }),
    );
    for (const listing of listings) expect(listing).toEqual(listings[0]);
    expect(listings[0]?.map((tool) => tool.name).sort()).toEqual(['audit_count', 'weather']);
  });
});

describe('tamper: a forged requestState cannot mark an effect or a step as done', () => {
  /** What each stateful shape would accept as "the effect already ran" if state were not sealed. */
  const FORGERIES: ReadonlyArray<{ name: OptionName; option: DeckOption; plaintext: string }> = [
    { name: 'f', option: OPTIONS.f, plaintext: JSON.stringify({ v: 1, o: ['audit'] }) },
    { name: 'g', option: OPTIONS.g, plaintext: JSON.stringify({ v: 1, d: { units: ['imperial'] } }) },
    { name: 'j', option: OPTIONS.j, plaintext: JSON.stringify({ v: 1, s: { audit: [] }, a: {}, p: [] }) },
    { name: 'h', option: OPTIONS.h, plaintext: JSON.stringify({ c: '00000000-0000-4000-8000-000000000000' }) },
  ];

  it.each(FORGERIES)(
    'option $name rejects plaintext, a foreign key and another call’s token with the frozen -32602',
    async ({ option, plaintext }) => {
      const lines: string[] = [];
      const server = option.server({
        requestState: { keys: [KEY] },
        onerror: (error) => void lines.push((error as Error).message),
      });
      const manual = await connectManual(server.createServer);
      const binding = { method: 'tools/call' as const, target: 'weather', arguments: TOKYO, principal: undefined };
      const attacker = createSealer('weather-deck', { keys: ['ab'.repeat(32)] });
      const paris = pending(await manual.round('weather', { location: 'Paris' }));
      const forged = [
        plaintext,
        Buffer.from(plaintext).toString('base64url'),
        await attacker.seal(new TextEncoder().encode(plaintext), binding),
        paris.requestState,
      ];
      const before = auditCount();
      for (const requestState of forged) {
        const error = await protocolError(
          manual.round('weather', TOKYO, { inputResponses: { units: accept({ units: 'imperial' }) }, requestState }),
        );
        expect({ code: error.code, message: error.message, data: error.data }).toEqual(FROZEN);
      }
      expect(auditCount() - before).toBe(0);
      expect(lines).toEqual([
        'requestState rejected on tools/call: malformed', // plaintext JSON: not a token at all
        'requestState rejected on tools/call: bad_version', // a token-shaped encoding of it
        'requestState rejected on tools/call: unknown_key (sealed with a key this process does not have: set the same MCP_REQUEST_STATE_KEYS (or requestState.keys) on every instance and keep it across restarts)', // sealed, but not with this server's key
        'requestState rejected on tools/call: binding_mismatch', // genuine, but minted for another call
      ]);
      // The connection keeps serving: the genuine flow still asks, then answers.
      const first = pending(await manual.round('weather', TOKYO));
      const done = await manual.round(
        'weather',
        TOKYO,
        answerAll(first, () => accept({ units: 'imperial' })),
      );
      expect(done.kind === 'complete' && textOf(done.result)).toBe('Weather in Tokyo: 72°F');
    },
  );
});

describe("A: the SDK's legacy shim, as LEGACY_SHIM names it", () => {
  it('runs in every McpResolveServer: a legacy call that keeps asking stops after maxRounds pushes', async () => {
    const asksForever = new McpResolveServer({ name: 'shim', version: '1.0.0' }).tool(
      'weather',
      { input: WEATHER_INPUT },
      () => askUnits(),
    );
    const seen = await observe(
      await connect(asksForever.createServer, { era: 'legacy', elicit: answerUnits('metric') }),
    );
    expect({ isError: seen.isError, pushes: seen.pushes, legs: seen.legs }).toEqual({
      isError: true,
      pushes: LEGACY_SHIM.maxRounds,
      legs: 1,
    });
    expect(seen.text).toBe(
      `Multi-round-trip request 'tools/call' still required input after ${LEGACY_SHIM.maxRounds} rounds (inputRequired.maxRounds)`,
    );
  });
});

describe("modern-only infrastructure (A's deployment hazard)", () => {
  /** Serves `option` behind the SDK's per-request handler with its default stateless legacy leg: modern-only infrastructure. */
  async function perRequestOnly(option: DeckOption): Promise<URL> {
    const handler = createMcpHandler(option.server().createServer);
    const nodeHandler = toNodeHandler(handler);
    const server = createHttpServer((req, res) => void nodeHandler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onCleanup(async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  }

  /** What a legacy client gets from each option on modern-only infrastructure (the README's second row). */
  const PER_REQUEST: Record<OptionName, 'default' | 'error result' | 'refused'> = {
    e: 'default',
    f: 'default',
    g: 'default',
    h: 'default',
    a: 'error result',
    b: 'refused',
    c: 'refused',
    d: 'refused',
    j: 'refused',
  };

  it.each(CASES)('option $name on per-request legacy serving', async ({ name, option }) => {
    const connection = await connectHttp(await perRequestOnly(option), {
      era: 'legacy',
      elicit: answerUnits('imperial'),
    });
    onCleanup(() => connection.close());
    const call = connection.client.callTool({ name: 'weather', arguments: TOKYO });
    switch (PER_REQUEST[name]) {
      case 'default': {
        const result = await call;
        expect({ text: textOf(result), isError: result.isError === true }).toEqual({
          text: 'Weather in Tokyo: 22°C',
          isError: false,
        });
        break;
      }
      case 'error result': {
        // The shim's hazard: the failure surfaces at run time, far from the tool's code.
        const result = await call;
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain('per-request legacy serving cannot receive server-to-client requests');
        break;
      }
      case 'refused': {
        const error = await protocolError(call);
        expect({ code: error.code, message: error.message }).toEqual({
          code: -32603,
          message: expect.stringContaining('this legacy (2025-11-25) request has no session, so no channel'),
        });
        break;
      }
    }
  });
});

describe('the MRTR-only client', () => {
  it('refuses a legacy-only server instead of falling back', async () => {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    const legacyOnly = OPTIONS.j.server().createServer();
    await legacyOnly.connect(serverEnd);
    const client = new Client(
      { name: 'mrtr-only', version: '0.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } },
    );
    onCleanup(async () => {
      await client.close();
      await legacyOnly.close();
    });
    await expect(client.connect(clientEnd)).rejects.toThrow(
      /did not offer pinned protocol version 2026-07-28.*no fallback/,
    );
  });
});
