import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { McpResolveError } from '../../src/errors.js';
import type { SealingOptions } from '../../src/contracts/index.js';
import { createSealer } from '../../src/state/sealer.js';
import { REQUEST_STATE_KEYS_ENV } from '../../src/contracts/index.js';
import { BINDING, KEY_A, KEY_B, KEY_C, bytes, expectRejected, fixture } from './helpers.js';

const GENERATE = "Generate a key with: node -e \"console.log(require('crypto').randomBytes(32).toString('hex'))\"";

function constructionError(serverName: string, options?: SealingOptions): McpResolveError {
  try {
    createSealer(serverName, options);
  } catch (error) {
    if (error instanceof McpResolveError) return error;
    throw error;
  }
  throw new Error('expected createSealer to throw');
}

let savedEnv: string | undefined;
beforeEach(() => {
  savedEnv = process.env[REQUEST_STATE_KEYS_ENV];
  delete process.env[REQUEST_STATE_KEYS_ENV];
});
afterEach(() => {
  if (savedEnv === undefined) delete process.env[REQUEST_STATE_KEYS_ENV];
  else process.env[REQUEST_STATE_KEYS_ENV] = savedEnv;
});

describe('key ring construction errors (exact messages, code invalid_keys, never the key)', () => {
  const cases: Array<{ name: string; keys: unknown; message: string; secret?: string }> = [
    {
      name: 'a key shorter than 32 bytes',
      keys: [KEY_A, 'ab'.repeat(31)],
      message: `createSealer(): options.keys[1] is 31 bytes; every key must be at least 32 bytes. ${GENERATE}`,
      secret: 'ab'.repeat(31),
    },
    {
      name: 'a duplicate key, even in another encoding',
      keys: [KEY_A, KEY_B, Buffer.from(KEY_A, 'hex').toString('base64')],
      message: 'createSealer(): options.keys[2] repeats options.keys[0]; every key in the ring must be distinct.',
      secret: KEY_A,
    },
    {
      name: 'an empty ring',
      keys: [],
      message: `createSealer(): options.keys is empty; pass at least one key of 32 bytes or more, or omit keys for a random per-process key. ${GENERATE}`,
    },
    {
      name: 'a key of the wrong type',
      keys: [KEY_A, 12345],
      message: `createSealer(): options.keys[1] must be a hex or base64 string or a Uint8Array (got number). ${GENERATE}`,
    },
    {
      name: 'a null key',
      keys: [null],
      message: `createSealer(): options.keys[0] must be a hex or base64 string or a Uint8Array (got null). ${GENERATE}`,
    },
    {
      name: 'a ring that is not an array',
      keys: KEY_A,
      message:
        'createSealer(): options.keys must be an array of keys (got string); wrap a single key in an array: keys: [key].',
      secret: KEY_A,
    },
    {
      name: 'an undecodable string',
      keys: ['this is not a key, it is a passphrase!'],
      message: `createSealer(): options.keys[0] is neither hex nor base64 (a string of 38 characters). ${GENERATE}`,
      secret: 'passphrase',
    },
    {
      name: 'base64 with broken padding',
      keys: [`${Buffer.from(KEY_C, 'hex').toString('base64').replace(/=+$/, '')}==`],
      message: `createSealer(): options.keys[0] is neither hex nor base64 (a string of 45 characters). ${GENERATE}`,
    },
    {
      name: 'an empty string',
      keys: [''],
      message: `createSealer(): options.keys[0] is an empty string; remove it or put a key there. ${GENERATE}`,
    },
  ];

  for (const { name, keys, message, secret } of cases) {
    it(`rejects ${name}`, () => {
      // @ts-expect-error - JavaScript callers and configuration files can pass anything
      const error = constructionError('refund-desk', { keys });
      expect(error.code).toBe('invalid_keys');
      expect(error.message).toBe(message);
      if (secret !== undefined) expect(error.message).not.toContain(secret);
    });
  }
});

describe('accepted key encodings', () => {
  it('accepts hex (any case), base64 (padded or not), base64url and bytes for the same key, interoperably', async () => {
    const raw = Buffer.from(KEY_C, 'hex');
    const encodings: Array<string | Uint8Array> = [
      KEY_C,
      KEY_C.toUpperCase(),
      raw.toString('base64'),
      raw.toString('base64').replace(/=+$/, ''),
      raw.toString('base64url'),
      new Uint8Array(raw),
    ];
    const minter = fixture({ keys: [KEY_C], replayStore: false });
    const token = await minter.sealer.seal(bytes('s'), BINDING);
    for (const key of encodings) {
      expect(await fixture({ keys: [key], replayStore: false }).sealer.open(token, BINDING)).toEqual(bytes('s'));
    }
  });

  it('copies a Uint8Array key: changing the array later does not change the ring', async () => {
    const key = new Uint8Array(Buffer.from(KEY_A, 'hex'));
    const copy = fixture({ keys: [key] });
    key.fill(0);
    const reference = fixture({ keys: [KEY_A] });
    expect(await reference.sealer.open(await copy.sealer.seal(bytes('s'), BINDING), BINDING)).toEqual(bytes('s'));
  });
});

describe(`keys from ${REQUEST_STATE_KEYS_ENV}`, () => {
  it('uses comma-separated keys (blanks trimmed) when options.keys is absent, the first one sealing', async () => {
    process.env[REQUEST_STATE_KEYS_ENV] = ` ${KEY_B} , ${Buffer.from(KEY_A, 'hex').toString('base64')}`;
    const fromEnv = fixture({ keys: undefined, replayStore: false });
    const withB = fixture({ keys: [KEY_B] });
    const withA = fixture({ keys: [KEY_A] });
    const token = await fromEnv.sealer.seal(bytes('s'), BINDING);
    expect(await withB.sealer.open(token, BINDING)).toEqual(bytes('s'));
    expect(await fromEnv.sealer.open(await withA.sealer.seal(bytes('a'), BINDING), BINDING)).toEqual(bytes('a'));
  });

  it('prefers options.keys over the environment', async () => {
    process.env[REQUEST_STATE_KEYS_ENV] = KEY_B;
    const explicit = fixture({ keys: [KEY_A] });
    const withB = fixture({ keys: [KEY_B] });
    await expectRejected(
      withB.sealer.open(await explicit.sealer.seal(bytes('s'), BINDING), BINDING),
      withB.log,
      'unknown_key',
    );
  });

  it('names the variable and the entry in its errors', () => {
    process.env[REQUEST_STATE_KEYS_ENV] = `${KEY_A},,${KEY_B}`;
    expect(constructionError('desk').message).toBe(
      `createSealer(): ${REQUEST_STATE_KEYS_ENV}[1] is an empty string; remove it or put a key there. ${GENERATE}`,
    );
    process.env[REQUEST_STATE_KEYS_ENV] = `${KEY_A},abcd`;
    expect(constructionError('desk').message).toBe(
      `createSealer(): ${REQUEST_STATE_KEYS_ENV}[1] is 2 bytes; every key must be at least 32 bytes. ${GENERATE}`,
    );
  });

  it('refuses a variable that is set but empty rather than falling back to a random key', () => {
    process.env[REQUEST_STATE_KEYS_ENV] = '  ';
    const error = constructionError('desk');
    expect(error.code).toBe('invalid_keys');
    expect(error.message).toBe(
      `createSealer(): ${REQUEST_STATE_KEYS_ENV} is set but empty; set it to comma-separated keys (hex or base64) of 32 bytes or more, or unset it for a random per-process key. ${GENERATE}`,
    );
  });
});

describe('audience requirement', () => {
  const NEEDS =
    "an audience, so that two services sharing a key still reject each other's tokens; pass a non-empty server name or options.audience (got an empty server name). Every instance that shares the keys must use the same audience.";

  it('refuses explicit keys with an empty server name and no audience', () => {
    const error = constructionError('', { keys: [KEY_A] });
    expect(error.code).toBe('invalid_options');
    expect(error.message).toBe(`createSealer(): explicit keys (options.keys) need ${NEEDS}`);
  });

  it('refuses environment keys and codecs with an empty server name and no audience', () => {
    process.env[REQUEST_STATE_KEYS_ENV] = KEY_A;
    expect(constructionError('').message).toBe(`createSealer(): keys from ${REQUEST_STATE_KEYS_ENV} need ${NEEDS}`);
    const codec = { seal: () => 'x', unseal: () => new Uint8Array(0) };
    expect(constructionError('', { codec }).message).toBe(`createSealer(): a codec (options.codec) needs ${NEEDS}`);
  });

  it('accepts an explicit audience in place of a name, and a nameless server on the per-process key', () => {
    expect(createSealer('', { keys: [KEY_A], audience: 'urn:desk' }).audience).toBe('urn:desk');
    expect(createSealer('').audience).toBe('');
  });

  it('refuses an empty explicit audience', () => {
    expect(constructionError('desk', { audience: '' }).message).toBe(
      'createSealer(): options.audience must be a non-empty string (got an empty string).',
    );
  });
});

describe('other construction errors (code invalid_options)', () => {
  const cases: Array<{ options: unknown; message: string }> = [
    { options: { ttlMs: 0 }, message: 'options.ttlMs must be a positive finite number of milliseconds (got 0).' },
    {
      options: { ttlMs: -5 },
      message: 'options.ttlMs must be a positive finite number of milliseconds (got -5).',
    },
    {
      options: { ttlMs: Number.POSITIVE_INFINITY },
      message: 'options.ttlMs must be a positive finite number of milliseconds (got Infinity).',
    },
    {
      options: { ttlMs: '600' },
      message: 'options.ttlMs must be a positive finite number of milliseconds (got string).',
    },
    {
      options: { skewMs: -1 },
      message: 'options.skewMs must be a finite number of milliseconds, 0 or more (got -1).',
    },
    {
      options: { skewMs: Number.NaN },
      message: 'options.skewMs must be a finite number of milliseconds, 0 or more (got NaN).',
    },
    {
      options: { keys: [KEY_A], codec: { seal: () => '', unseal: () => new Uint8Array(0) } },
      message: 'pass options.keys or options.codec, not both; a codec brings its own keys.',
    },
    {
      options: { codec: { seal: () => '' } },
      message: 'options.codec must be an object with seal(bytes) and unseal(token) methods.',
    },
    {
      options: { replayStore: 'yes' },
      message:
        'options.replayStore must be true, false or a ReplayStore with consume(tokenId, expiresAt) (got string).',
    },
    { options: { now: 5 }, message: 'options.now must be a function returning ms since the epoch (got number).' },
    { options: 'fast', message: 'options must be an object (got string).' },
  ];
  for (const { options, message } of cases) {
    it(`rejects ${JSON.stringify(options) ?? String(options)}`, () => {
      // @ts-expect-error - JavaScript callers and configuration files can pass anything
      const error = constructionError('desk', options);
      expect(error.code).toBe('invalid_options');
      expect(error.message).toBe(`createSealer(): ${message}`);
    });
  }
});

describe('the per-process random key', () => {
  it('is shared by every sealer of the process without keys, and rejected by a configured ring', async () => {
    const first = fixture({ keys: undefined, replayStore: false });
    const second = fixture({ keys: undefined });
    const configured = fixture({ keys: [KEY_A] });
    const token = await first.sealer.seal(bytes('s'), BINDING);
    expect(await second.sealer.open(token, BINDING)).toEqual(bytes('s'));
    await expectRejected(configured.sealer.open(token, BINDING), configured.log, 'unknown_key');
  });
});

describe('three-phase rotation [OLD, NEW] → [NEW, OLD] → [NEW]', () => {
  const OLD = KEY_A;
  const NEW = KEY_B;
  const phases = {
    'phase 1 [OLD, NEW]': [OLD, NEW],
    'phase 2 [NEW, OLD]': [NEW, OLD],
    'phase 3 [NEW]': [NEW],
  } as const;
  type Phase = keyof typeof phases;
  // Which phases must accept a token minted in each phase (phase 3 drops OLD one TTL after phase 2 began).
  const accepts: Record<Phase, readonly Phase[]> = {
    'phase 1 [OLD, NEW]': ['phase 1 [OLD, NEW]', 'phase 2 [NEW, OLD]'],
    'phase 2 [NEW, OLD]': ['phase 1 [OLD, NEW]', 'phase 2 [NEW, OLD]', 'phase 3 [NEW]'],
    'phase 3 [NEW]': ['phase 1 [OLD, NEW]', 'phase 2 [NEW, OLD]', 'phase 3 [NEW]'],
  };
  const names: readonly Phase[] = ['phase 1 [OLD, NEW]', 'phase 2 [NEW, OLD]', 'phase 3 [NEW]'];

  for (const minted of names) {
    it(`a token minted in ${minted} opens where the ring still holds its key`, async () => {
      const minter = fixture({ keys: phases[minted] });
      const token = await minter.sealer.seal(bytes(minted), BINDING);
      for (const verifying of names) {
        const verifier = fixture({ keys: phases[verifying], replayStore: false });
        if (accepts[minted].includes(verifying)) {
          expect(await verifier.sealer.open(token, BINDING)).toEqual(bytes(minted));
        } else {
          await expectRejected(verifier.sealer.open(token, BINDING), verifier.log, 'unknown_key');
        }
      }
    });
  }

  it('seals with the first key of the ring', async () => {
    const phase1 = fixture({ keys: [OLD, NEW] });
    const onlyOld = fixture({ keys: [OLD] });
    expect(await onlyOld.sealer.open(await phase1.sealer.seal(bytes('s'), BINDING), BINDING)).toEqual(bytes('s'));
    const phase2 = fixture({ keys: [NEW, OLD] });
    await expectRejected(
      onlyOld.sealer.open(await phase2.sealer.seal(bytes('s'), BINDING), BINDING),
      onlyOld.log,
      'unknown_key',
    );
  });
});
