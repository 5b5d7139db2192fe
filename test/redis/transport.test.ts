/** TLS and the ACL user as node-redis options: checked before anything connects. */
import { describe, expect, it } from 'vitest';

import { McpResolveError } from '../../src/errors.js';
import { credentials, tlsSocket, urlFor } from '../../src/redis/transport.js';

const API = 'connectRedis()';

describe('tlsSocket', () => {
  it('turns TLS on with the certificates given, and off without tls', () => {
    expect(tlsSocket({}, API)).toEqual({});
    expect(tlsSocket({ tls: true }, API)).toEqual({ tls: true });
    expect(tlsSocket({ tls: { ca: 'CA', cert: 'C', key: 'K', servername: 'redis.example' } }, API)).toEqual({
      tls: true,
      ca: 'CA',
      cert: 'C',
      key: 'K',
      servername: 'redis.example',
    });
  });

  it('refuses a client certificate without its key, and a key without its certificate, naming the missing one', () => {
    for (const [tls, option] of [
      [{ cert: 'C' }, 'tls.key'],
      [{ key: 'K' }, 'tls.cert'],
    ] as const) {
      let error: unknown;
      try {
        tlsSocket({ tls }, API);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(McpResolveError);
      expect((error as McpResolveError).message).toBe(
        `connectRedis(): ${option} is missing: a client certificate needs both tls.cert and tls.key (PEM text).`,
      );
      expect((error as McpResolveError).data).toEqual({ api: API, option });
    }
  });
});

describe('urlFor', () => {
  it('makes a redis:// URL rediss:// when tls is set, and leaves it otherwise', () => {
    expect(urlFor('redis://h:6380', { tls: true }, API)).toBe('rediss://h:6380');
    expect(urlFor('redis://h:6380', {}, API)).toBe('redis://h:6380');
    expect(urlFor('rediss://u:p@h:6380', { tls: { ca: 'CA' } }, API)).toBe('rediss://u:p@h:6380');
  });

  it('refuses credentials both in the URL and as options, without showing the password', () => {
    expect(() => urlFor('rediss://u:s3cret@h:6380', { username: 'u', password: 'p' }, API)).toThrow(
      'connectRedis(): the Redis URL carries a user or password and username/password are set too; give them in one place (username and password, or the URL).',
    );
    expect(credentials({ username: 'u' })).toEqual({ username: 'u' });
  });
});
