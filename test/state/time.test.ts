import { describe, expect, it } from 'vitest';

import { DEFAULT_SKEW_MS, DEFAULT_STATE_TTL_MS } from '../../src/state/options.js';
import { BINDING, T0, bytes, expectRejected, fixture, protocolRejection, testClock, wireOf } from './helpers.js';

const SECOND = 1000;

describe('time window', () => {
  it('defaults to a 600 s TTL and a 30 s skew allowance', () => {
    expect(DEFAULT_STATE_TTL_MS).toBe(600_000);
    expect(DEFAULT_SKEW_MS).toBe(30_000);
  });

  it('accepts a token up to TTL + skew after issue and rejects it 1 ms later', async () => {
    const { sealer, clock, log } = fixture({ replayStore: false });
    const token = await sealer.seal(bytes('s'), BINDING);
    clock.set(T0 + 600 * SECOND);
    expect(await sealer.open(token, BINDING)).toEqual(bytes('s'));
    clock.set(T0 + 630 * SECOND);
    expect(await sealer.open(token, BINDING)).toEqual(bytes('s'));
    clock.set(T0 + 630 * SECOND + 1);
    await expectRejected(sealer.open(token, BINDING), log, 'expired');
  });

  it('honours a custom TTL and a zero skew exactly', async () => {
    const { sealer, clock, log } = fixture({ ttlMs: 60_000, skewMs: 0, replayStore: false });
    const token = await sealer.seal(bytes('s'), BINDING);
    clock.set(T0 + 60 * SECOND);
    expect(await sealer.open(token, BINDING)).toEqual(bytes('s'));
    clock.set(T0 + 60 * SECOND + 1);
    await expectRejected(sealer.open(token, BINDING), log, 'expired');
  });

  it('accepts a token minted up to skew in the future and rejects one minted 1 ms further', async () => {
    const ahead = testClock(T0 + 30 * SECOND);
    const minter = fixture({}, 'refund-desk', ahead);
    const verifier = fixture({ replayStore: false });
    const token = await minter.sealer.seal(bytes('s'), BINDING);
    expect(await verifier.sealer.open(token, BINDING)).toEqual(bytes('s'));
    ahead.set(T0 + 30 * SECOND + 1);
    const tooEarly = await minter.sealer.seal(bytes('s'), BINDING);
    await expectRejected(verifier.sealer.open(tooEarly, BINDING), verifier.log, 'not_yet_valid');
  });

  it('with zero skew rejects any token minted in the future', async () => {
    const minter = fixture({}, 'refund-desk', testClock(T0 + 1));
    const verifier = fixture({ skewMs: 0 });
    await expectRejected(
      verifier.sealer.open(await minter.sealer.seal(bytes('s'), BINDING), BINDING),
      verifier.log,
      'not_yet_valid',
    );
  });

  it('bounds think time per round: every re-seal starts a fresh TTL', async () => {
    const { sealer, clock } = fixture();
    let token = await sealer.seal(bytes('round 1'), BINDING);
    for (let round = 2; round <= 5; round++) {
      clock.advance(500 * SECOND);
      await sealer.open(token, BINDING);
      token = await sealer.seal(bytes(`round ${round}`), BINDING);
    }
    clock.advance(500 * SECOND);
    expect(await sealer.open(token, BINDING)).toEqual(bytes('round 5'));
  });

  it("judges expiry by the verifier's TTL, so shortening it takes effect for tokens in flight", async () => {
    const minter = fixture({ ttlMs: 3_600_000 });
    const verifier = fixture({ ttlMs: 60_000, skewMs: 0 }, 'refund-desk', minter.clock);
    const token = await minter.sealer.seal(bytes('s'), BINDING);
    minter.clock.advance(61 * SECOND);
    await expectRejected(verifier.sealer.open(token, BINDING), verifier.log, 'expired');
  });

  it('fails sealing with a bare -32603 when the clock is unusable', async () => {
    for (const bad of [Number.NaN, -1, 2 ** 48]) {
      const { sealer, log } = fixture({ now: () => bad });
      const error = await protocolRejection(sealer.seal(bytes('s'), BINDING));
      expect(wireOf(error)).toEqual({ code: -32603, message: 'Internal error', data: undefined });
      expect(log.lines).toEqual(['requestState sealing failed on tools/call: bad_clock']);
    }
  });
});
