import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { TOKEN_OVERHEAD_BYTES } from '../../src/state/token.js';
import { BINDING, bytes, fixture, tokenBytes } from './helpers.js';

describe('seal → open round trip', () => {
  it('returns an empty payload unchanged', async () => {
    const { sealer } = fixture();
    const token = await sealer.seal(new Uint8Array(0), BINDING);
    expect(await sealer.open(token, BINDING)).toEqual(new Uint8Array(0));
  });

  it('returns every byte value unchanged', async () => {
    const { sealer } = fixture();
    const all = Uint8Array.from({ length: 256 }, (_, index) => index);
    expect(await sealer.open(await sealer.seal(all, BINDING), BINDING)).toEqual(all);
  });

  it('returns a 1 MiB random payload unchanged', async () => {
    const { sealer } = fixture();
    const large = new Uint8Array(randomBytes(1024 * 1024));
    const opened = await sealer.open(await sealer.seal(large, BINDING), BINDING);
    expect(opened.length).toBe(large.length);
    expect(Buffer.from(opened).equals(Buffer.from(large))).toBe(true);
  });

  it('works for prompts/get and resources/read', async () => {
    const { sealer } = fixture();
    const prompt = { method: 'prompts/get', target: 'triage', arguments: { ticket: '7' }, principal: 'p' } as const;
    const resource = {
      method: 'resources/read',
      target: 'file:///orders/7.json',
      arguments: undefined,
      principal: undefined,
    } as const;
    expect(await sealer.open(await sealer.seal(bytes('p'), prompt), prompt)).toEqual(bytes('p'));
    expect(await sealer.open(await sealer.seal(bytes('r'), resource), resource)).toEqual(bytes('r'));
  });

  it('adds exactly 48 bytes before base64url: 64 characters over base64url(plaintext), whatever the size', async () => {
    const { sealer } = fixture();
    expect(TOKEN_OVERHEAD_BYTES).toBe(48);
    for (const size of [0, 1, 2, 3, 4, 200, 999, 1000]) {
      const plaintext = new Uint8Array(size);
      const token = await sealer.seal(plaintext, BINDING);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(token.length).toBe(Math.ceil(((size + 48) * 4) / 3));
      expect(token.length - Buffer.from(plaintext).toString('base64url').length).toBe(64);
    }
  });

  it('encrypts: the plaintext never appears in the token, and equal payloads give different tokens', async () => {
    const { sealer } = fixture({ replayStore: false });
    const secret = bytes('PLAINTEXT-MARKER-'.repeat(4));
    const first = await sealer.seal(secret, BINDING);
    const second = await sealer.seal(secret, BINDING);
    expect(first).not.toBe(second);
    expect(tokenBytes(first).includes(Buffer.from(secret))).toBe(false);
    expect(first).not.toContain(Buffer.from(secret).toString('base64url').slice(4, 40));
  });

  it('hands out a fresh copy each time, not a view of shared memory', async () => {
    const { sealer } = fixture({ replayStore: false });
    const token = await sealer.seal(bytes('abc'), BINDING);
    const opened = await sealer.open(token, BINDING);
    expect(opened.byteOffset).toBe(0);
    expect(opened.buffer.byteLength).toBe(3);
    opened[0] = 0;
    expect(await sealer.open(token, BINDING)).toEqual(bytes('abc'));
  });

  it('keeps working with detached methods', async () => {
    const { seal, open } = fixture().sealer;
    expect(await open(await seal(bytes('x'), BINDING), BINDING)).toEqual(bytes('x'));
  });

  it('exposes the audience: the server name by default, or the explicit one', () => {
    expect(fixture().sealer.audience).toBe('refund-desk');
    expect(fixture({ audience: 'urn:desk' }).sealer.audience).toBe('urn:desk');
  });
});
