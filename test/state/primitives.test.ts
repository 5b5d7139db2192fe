import { describe, expect, it } from 'vitest';

import type { CryptoPrimitives } from '../../src/state/primitives.js';
import { createSealer } from '../../src/state/sealer.js';
import { nodePrimitives, webPrimitives } from '../../src/state/primitives.js';
import { BINDING, KEY_A, KEY_B, bytes, captureLog, expectRejected, testClock } from './helpers.js';

const node = nodePrimitives();
if (node === undefined)
  throw new Error('the test runtime (Node) must offer node:crypto through process.getBuiltinModule');

const sealerWith = (primitives: CryptoPrimitives, keys = [KEY_A], audience = 'refund-desk') => {
  const log = captureLog();
  const sealer = createSealer(audience, { keys, primitives, sink: log.sink, now: testClock().now });
  return { sealer, log };
};

describe('one token format on every runtime', () => {
  it('chooses synchronous node:crypto on Node and says so', () => {
    expect(node.name).toBe('node');
    expect(webPrimitives.name).toBe('web');
  });

  it('gives the same SHA-256, HMAC and HKDF bytes on both primitives', () => {
    const parts = [bytes('mcp'), bytes('-resolve')];
    expect(webPrimitives.sha256(parts)).toEqual(node.sha256(parts));
    const key = bytes(KEY_B);
    expect(webPrimitives.hmacKey(key)(parts)).toEqual(node.hmacKey(key)(parts));
    expect(webPrimitives.hkdf(key, bytes('salt'), 'info', 42)).toEqual(node.hkdf(key, bytes('salt'), 'info', 42));
  });

  for (const [from, to] of [
    [node, webPrimitives],
    [webPrimitives, node],
  ] as const) {
    it(`opens on ${to.name} what ${from.name} sealed, with the principal and every binding checked`, async () => {
      const sealing = sealerWith(from);
      const opening = sealerWith(to);
      const bound = { ...BINDING, principal: 'alice' };
      const token = await sealing.sealer.seal(bytes('{"step":2}'), bound);
      expect(await opening.sealer.open(token, bound)).toEqual(bytes('{"step":2}'));
      const again = await sealing.sealer.seal(bytes('{"step":3}'), bound);
      await expectRejected(
        opening.sealer.open(again, { ...bound, principal: 'bob' }),
        opening.log,
        'principal_mismatch',
      );
      await expectRejected(opening.sealer.open(again, { ...bound, target: 'other' }), opening.log, 'binding_mismatch');
      const foreign = sealerWith(to, [KEY_A], 'billing');
      await expectRejected(foreign.sealer.open(again, bound), foreign.log, 'audience_mismatch');
    });
  }

  it('keeps the web primitives correct on their own: tampering, unknown keys, rotation', async () => {
    const { sealer, log } = sealerWith(webPrimitives, [KEY_B, KEY_A]);
    const old = sealerWith(webPrimitives, [KEY_A]);
    const token = await old.sealer.seal(bytes('state'), BINDING);
    expect(await sealer.open(token, BINDING)).toEqual(bytes('state'));
    const flipped = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.slice(-1);
    await expectRejected(sealer.open(flipped, BINDING), log, 'tampered');
    const stranger = sealerWith(webPrimitives, [KEY_B]);
    await expectRejected(
      stranger.sealer.open(await old.sealer.seal(bytes('x'), BINDING), BINDING),
      stranger.log,
      'unknown_key',
    );
  });
});
