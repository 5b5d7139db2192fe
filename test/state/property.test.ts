import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { RequestBinding } from '../../src/state/binding.js';
import { BINDING, FROZEN, KEY_A, asToken, bytes, fixture, protocolRejection, wireOf } from './helpers.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('');

/** One edit of a token string. */
type Mutation =
  | { kind: 'flip'; position: number; bit: number }
  | { kind: 'replace'; position: number; char: string }
  | { kind: 'insert'; position: number; text: string }
  | { kind: 'delete'; position: number; length: number }
  | { kind: 'swap'; position: number; other: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant<'flip'>('flip'), position: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({
    kind: fc.constant<'replace'>('replace'),
    position: fc.nat(),
    char: fc.oneof(fc.constantFrom(...BASE64URL), fc.string({ minLength: 1, maxLength: 1 })),
  }),
  fc.record({
    kind: fc.constant<'insert'>('insert'),
    position: fc.nat(),
    text: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/), fc.string({ minLength: 1, maxLength: 4 })),
  }),
  fc.record({ kind: fc.constant<'delete'>('delete'), position: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ kind: fc.constant<'swap'>('swap'), position: fc.nat(), other: fc.nat() }),
);

/** Applies edits to the token's string or, for bit flips, to its decoded bytes. */
function mutate(token: string, edits: readonly Mutation[]): string {
  let text = token;
  for (const edit of edits) {
    const at = text.length === 0 ? 0 : edit.position % text.length;
    switch (edit.kind) {
      case 'flip': {
        const raw = Buffer.from(text, 'base64url');
        if (raw.length === 0) break;
        const index = edit.position % raw.length;
        raw[index] = (raw[index] ?? 0) ^ (1 << edit.bit);
        text = asToken(raw);
        break;
      }
      case 'replace':
        text = text.slice(0, at) + edit.char + text.slice(at + 1);
        break;
      case 'insert':
        text = text.slice(0, at) + edit.text + text.slice(at);
        break;
      case 'delete':
        text = text.slice(0, at) + text.slice(at + edit.length);
        break;
      case 'swap': {
        const other = text.length === 0 ? 0 : edit.other % text.length;
        const chars = text.split('');
        const a = chars[at] ?? '';
        chars[at] = chars[other] ?? '';
        chars[other] = a;
        text = chars.join('');
        break;
      }
    }
  }
  return text;
}

describe('property: nothing but an untouched token opens', () => {
  it('rejects thousands of random mutations of a valid token with the frozen error', async () => {
    const { sealer, log } = fixture({ replayStore: false });
    const token = await sealer.seal(bytes('{"progress":{"q1":"yes"}}'), BINDING);
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (edits) => {
        const mutated = mutate(token, edits);
        fc.pre(mutated !== token);
        expect(wireOf(await protocolRejection(sealer.open(mutated, BINDING)))).toEqual(FROZEN);
      }),
      { numRuns: 2000 },
    );
    expect(log.lines.length).toBeGreaterThan(1500);
    expect(await sealer.open(token, BINDING)).toEqual(bytes('{"progress":{"q1":"yes"}}'));
  });

  it('rejects thousands of random strings, including well-formed base64url of plausible length', async () => {
    const { sealer } = fixture({ replayStore: false });
    const keyId = Buffer.from(await sealer.seal(new Uint8Array(0), BINDING), 'base64url').subarray(0, 5);
    const plausible = fc
      .uint8Array({ minLength: 40, maxLength: 120 })
      .map((random) => asToken(Buffer.concat([keyId, random])));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 200 }), fc.stringMatching(/^[A-Za-z0-9_-]{0,160}$/), plausible),
        async (text) => {
          expect(wireOf(await protocolRejection(sealer.open(text, BINDING)))).toEqual(FROZEN);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('rejects any non-string value with the frozen error', async () => {
    const { sealer } = fixture();
    await fc.assert(
      fc.asyncProperty(
        fc.anything().filter((value) => typeof value !== 'string'),
        async (value) => {
          expect(wireOf(await protocolRejection(sealer.open(value, BINDING)))).toEqual(FROZEN);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('round-trips any payload for any JSON arguments, whatever the key order on the way back', async () => {
    const { sealer } = fixture({ keys: [KEY_A] });
    const json = fc.jsonValue().map((value): unknown => JSON.parse(JSON.stringify(value)));
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        json,
        fc.option(fc.string()),
        async (payload, args, principal) => {
          const binding: RequestBinding = { ...BINDING, arguments: args, principal: principal ?? undefined };
          const token = await sealer.seal(payload, binding);
          const reversed = { ...binding, arguments: reverseKeys(args) };
          expect(await sealer.open(token, reversed)).toEqual(payload);
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Rebuilds a JSON value with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, inner]) => [key, reverseKeys(inner)]),
    );
  }
  return value;
}
