import type { AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import type { RequestBinding } from '../../src/state/binding.js';
import { principalFrom } from '../../src/contracts/index.js';
import { BINDING, KEY_A, bytes, expectRejected, fixture, protocolRejection, wireOf } from './helpers.js';

async function mintedFor(binding: RequestBinding = BINDING): Promise<{ token: string; f: ReturnType<typeof fixture> }> {
  const f = fixture({ replayStore: false });
  return { token: await f.sealer.seal(bytes('state'), binding), f };
}

describe('binding to the originating request', () => {
  it('rejects a token replayed on another method', async () => {
    const { token, f } = await mintedFor();
    await expectRejected(
      f.sealer.open(token, { ...BINDING, method: 'prompts/get' }),
      f.log,
      'binding_mismatch',
      'prompts/get',
    );
    await expectRejected(
      f.sealer.open(token, { ...BINDING, method: 'resources/read' }),
      f.log,
      'binding_mismatch',
      'resources/read',
    );
  });

  it('rejects a token replayed on another target, compared exactly', async () => {
    const { token, f } = await mintedFor();
    for (const target of ['refund_orders', 'Refund_order', 'refund_order ', '']) {
      await expectRejected(f.sealer.open(token, { ...BINDING, target }), f.log, 'binding_mismatch');
    }
  });

  it('rejects a token replayed with other arguments', async () => {
    const { token, f } = await mintedFor();
    const others: unknown[] = [
      { orderId: 'ORD-9999', amount: 42.5 },
      { orderId: 'ORD-1234', amount: '42.5' },
      { orderId: 'ORD-1234' },
      { orderId: 'ORD-1234', amount: 42.5, extra: true },
      { orderId: 'ORD-1234', amount: 42.5, nested: {} },
      [{ orderId: 'ORD-1234', amount: 42.5 }],
      null,
      {},
    ];
    for (const args of others) {
      await expectRejected(f.sealer.open(token, { ...BINDING, arguments: args }), f.log, 'binding_mismatch');
    }
  });

  it('matches arguments by canonical form: key order is irrelevant, at every depth', async () => {
    const minted = { a: 1, b: { y: [1, { q: 1, p: 2 }], x: 'é' } };
    const { token, f } = await mintedFor({ ...BINDING, arguments: minted });
    const reordered = { b: { x: 'é', y: [1, { p: 2, q: 1 }] }, a: 1 };
    expect(await f.sealer.open(token, { ...BINDING, arguments: reordered })).toEqual(bytes('state'));
  });

  it('treats absent arguments as {} and nothing else', async () => {
    const { token, f } = await mintedFor({ ...BINDING, arguments: undefined });
    expect(await f.sealer.open(token, { ...BINDING, arguments: {} })).toEqual(bytes('state'));
    await expectRejected(f.sealer.open(token, { ...BINDING, arguments: null }), f.log, 'binding_mismatch');
  });

  it('digests the arguments as they are at each call: an object changed in place after sealing no longer matches', async () => {
    const args = { orderId: 'ORD-1234', amount: 42.5 };
    const { token, f } = await mintedFor({ ...BINDING, arguments: args });
    args.amount = 43;
    await expectRejected(f.sealer.open(token, { ...BINDING, arguments: args }), f.log, 'binding_mismatch');
    args.amount = 42.5;
    expect(await f.sealer.open(token, { ...BINDING, arguments: args })).toEqual(bytes('state'));
  });

  it('does not confuse targets that differ only in a lone surrogate', async () => {
    const { token, f } = await mintedFor({ ...BINDING, method: 'resources/read', target: 'file:///x\uD800' });
    await expectRejected(
      f.sealer.open(token, { ...BINDING, method: 'resources/read', target: 'file:///x\uDBFF' }),
      f.log,
      'binding_mismatch',
      'resources/read',
    );
  });

  it('rejects arguments that have no canonical JSON form: -32603 when sealing, the frozen error when opening', async () => {
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    const { token, f } = await mintedFor();
    for (const args of [{ bad: '\uD800' }, { n: Number.NaN }, { n: 1n }, circular]) {
      const error = await protocolRejection(f.sealer.seal(bytes('s'), { ...BINDING, arguments: args }));
      expect(wireOf(error)).toEqual({ code: -32603, message: 'Internal error', data: undefined });
      expect(f.log.lines.at(-1)).toBe('requestState sealing failed on tools/call: arguments_not_canonical');
      await expectRejected(f.sealer.open(token, { ...BINDING, arguments: args }), f.log, 'arguments_not_canonical');
    }
  });

  it('rejects a malformed binding (a bug in the caller) without leaking anything', async () => {
    const { token, f } = await mintedFor();
    const wrongs: unknown[] = [
      null,
      'tools/call',
      { ...BINDING, method: 'tools/list' },
      { ...BINDING, target: 7 },
      { ...BINDING, principal: 42 },
    ];
    for (const wrong of wrongs) {
      // @ts-expect-error - a JavaScript caller can pass anything
      await expectRejected(f.sealer.open(token, wrong), f.log);
      expect(f.log.lines.at(-1)).toMatch(/^requestState rejected on (tools\/call|an unknown method): invalid_binding$/);
      // @ts-expect-error - a JavaScript caller can pass anything
      const error = await protocolRejection(f.sealer.seal(bytes('s'), wrong));
      expect(error.code).toBe(-32603);
      expect(f.log.lines.at(-1)).toMatch(
        /^requestState sealing failed on (tools\/call|an unknown method): invalid_binding$/,
      );
    }
  });
});

describe('binding to the audience', () => {
  it('rejects a token from another server that shares the key', async () => {
    const desk = fixture({ replayStore: false }, 'refund-desk');
    const other = fixture({}, 'billing');
    const token = await desk.sealer.seal(bytes('state'), BINDING);
    await expectRejected(other.sealer.open(token, BINDING), other.log, 'audience_mismatch');
    const explicit = fixture({ audience: 'urn:refund-desk' }, 'refund-desk');
    await expectRejected(explicit.sealer.open(token, BINDING), explicit.log, 'audience_mismatch');
    expect(await desk.sealer.open(token, BINDING)).toEqual(bytes('state'));
  });

  it('accepts a token across instances with the same keys and audience', async () => {
    const one = fixture({ audience: 'urn:desk' }, 'instance-1');
    const two = fixture({ audience: 'urn:desk', keys: [Buffer.from(KEY_A, 'hex').toString('base64')] }, 'instance-2');
    expect(await two.sealer.open(await one.sealer.seal(bytes('s'), BINDING), BINDING)).toEqual(bytes('s'));
  });
});

describe('binding to the principal', () => {
  const alice = { ...BINDING, principal: '["app",null,"alice"]' };
  const bob = { ...BINDING, principal: '["app",null,"bob"]' };

  it('rejects a token replayed by another principal', async () => {
    const { token, f } = await mintedFor(alice);
    await expectRejected(f.sealer.open(token, bob), f.log, 'principal_mismatch');
    expect(await f.sealer.open(token, alice)).toEqual(bytes('state'));
  });

  it('rejects presence drift from anonymous to authenticated', async () => {
    const { token, f } = await mintedFor(BINDING);
    await expectRejected(f.sealer.open(token, alice), f.log, 'principal_mismatch');
  });

  it('rejects presence drift from authenticated to anonymous', async () => {
    const { token, f } = await mintedFor(alice);
    await expectRejected(f.sealer.open(token, BINDING), f.log, 'principal_mismatch');
  });

  it('tells an empty principal from an absent one', async () => {
    const { token, f } = await mintedFor({ ...BINDING, principal: '' });
    await expectRejected(f.sealer.open(token, BINDING), f.log, 'principal_mismatch');
  });

  it('never carries the principal in the token, in any encoding', async () => {
    const principal = 'alice@example.com';
    const f = fixture();
    const token = await f.sealer.seal(bytes('s'), { ...BINDING, principal });
    const raw = Buffer.from(token, 'base64url');
    for (const encoding of ['utf8', 'utf16le', 'latin1'] as const)
      expect(raw.includes(Buffer.from(principal, encoding))).toBe(false);
    expect(token).not.toContain(Buffer.from(principal).toString('base64url').slice(0, 12));
    expect(f.log.lines).toEqual([]);
  });
});

const base: AuthInfo = { token: 'access-token-SECRET', clientId: 'desk-app', scopes: ['refunds'] };

describe('principalFrom', () => {
  it('is undefined without auth info', () => {
    expect(principalFrom(undefined)).toBeUndefined();
  });

  it('is the client id alone when extra carries no issuer or subject', () => {
    expect(principalFrom(base)).toBe('["desk-app",null,null]');
  });

  it('adds issuer (iss) and subject (sub) from extra', () => {
    expect(principalFrom({ ...base, extra: { iss: 'https://issuer.example', sub: 'user-1' } })).toBe(
      '["desk-app","https://issuer.example","user-1"]',
    );
    expect(principalFrom({ ...base, extra: { sub: 'user-1' } })).toBe('["desk-app",null,"user-1"]');
  });

  it('ignores non-string iss/sub and everything unrelated to identity (token, scopes, expiry)', () => {
    const a = principalFrom({ ...base, extra: { iss: 'https://issuer.example', sub: 'user-1', roles: ['a'] } });
    const b = principalFrom({
      token: 'another-token',
      clientId: 'desk-app',
      scopes: [],
      expiresAt: 1,
      extra: { roles: ['b'], sub: 'user-1', iss: 'https://issuer.example' },
    });
    expect(a).toBe(b);
    expect(principalFrom({ ...base, extra: { iss: 7, sub: { id: 1 } } })).toBe('["desk-app",null,null]');
    expect(a).not.toContain('SECRET');
  });

  it('distinguishes every component, with no ambiguity between them', () => {
    const values = new Set([
      principalFrom(base),
      principalFrom({ ...base, clientId: 'other-app' }),
      principalFrom({ ...base, extra: { iss: 'https://issuer.example' } }),
      principalFrom({ ...base, extra: { sub: 'https://issuer.example' } }),
      principalFrom({ ...base, extra: { sub: 'user-2' } }),
      principalFrom({ ...base, clientId: 'desk-app","x' }),
      principalFrom({ ...base, extra: { iss: 'x' } }),
    ]);
    expect(values.size).toBe(7);
  });
});

describe('digesting a binding', () => {
  it('digests a binding object once, as it was when first used (a round opens and seals with one binding)', async () => {
    const f = fixture({ replayStore: false });
    const binding: RequestBinding = { ...BINDING, arguments: { orderId: 'ORD-1234', amount: 42.5 } };
    const token = await f.sealer.seal(bytes('state'), binding);
    binding.arguments = { orderId: 'ORD-9999', amount: 1 };
    // The same object still stands for the request it first described…
    await expect(f.sealer.open(token, binding)).resolves.toEqual(bytes('state'));
    // …and a fresh object describing the changed request does not match it.
    await expectRejected(f.sealer.open(token, { ...binding }), f.log, 'binding_mismatch');
  });
});
