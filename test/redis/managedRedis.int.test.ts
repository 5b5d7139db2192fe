/**
 * Managed Redis on one server: a redis-server that speaks only TLS and logs users in by its ACL
 * (the guide's line). The fleet works over `tls` and `username`/`password` or a `rediss://` URL
 * with credentials; every refusal (no TLS, an untrusted certificate, a missing client certificate,
 * a wrong or missing login, a user the ACL does not grant enough) names what to set or grant,
 * never a password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { McpResolveError } from 'mcp-resolve';
import type { RedisConnectOptions } from 'mcp-resolve/redis';
import { connectRedis, connectRedisFleet, createRedisTaskStore } from 'mcp-resolve/redis';

import type { RedisServer } from '../../scripts/lib/processes.js';
import { startRedisServer } from '../../scripts/lib/processes.js';
import { commandAt } from '../../scripts/lib/sentinel.js';
import { DATA_USER, guideAclLines, libraryOptions, useRedisAccess } from '../fixtures/redisAccess.js';
import { managedStory } from './managedStory.js';

const access = useRedisAccess();
let server: RedisServer | undefined;
/** The same TLS and ACL, but the server asks for a client certificate (`tls-auth-clients yes`). */
let strict: RedisServer | undefined;
beforeAll(async () => {
  server = await startRedisServer({ listen: (port) => access().serverArgs(port) });
  strict = await startRedisServer({ listen: (port) => [...access().serverArgs(port), '--tls-auth-clients', 'yes'] });
});
afterAll(async () => {
  await server?.dispose();
  await strict?.dispose();
});
const started = (): RedisServer => {
  if (server === undefined) throw new Error('the TLS server did not start');
  return server;
};

managedStory('one server', async () => connectRedisFleet({ url: started().url, ...libraryOptions(access()) }), {
  replicaAcks: 0,
});

/** The error `connectRedis` throws for `options` (a long connect budget: the server answers, slow machine or not). */
async function refusal(url: string, options: RedisConnectOptions): Promise<McpResolveError> {
  const error = await connectRedis(url, { connectTimeoutMs: 30_000, ...options }).then(
    async (connection) => {
      await connection.destroy();
      throw new Error('connected');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(McpResolveError);
  return error as McpResolveError;
}

describe('managed Redis, one server: connecting', () => {
  it('takes the user and password from a rediss:// URL, and TLS from its scheme', async () => {
    const { port } = started();
    const url = `rediss://${DATA_USER.username}:${DATA_USER.password}@127.0.0.1:${port}`;
    const connection = await connectRedis(url, { tls: { ca: access().ca } });
    expect(await connection.ping()).toBe('PONG');
    await connection.destroy();
  });

  it('names tls when the server speaks only TLS', async () => {
    const { port } = started();
    const error = await refusal(`redis://127.0.0.1:${port}`, DATA_USER);
    expect(error.code).toBe('redis_unavailable');
    expect(error.message).toContain(`127.0.0.1:${port} speaks only TLS: set tls (or use a rediss:// URL).`);
    expect(error.message).not.toContain(DATA_USER.password);
  });

  it('names the TLS port when tls is set for a port that does not speak TLS (it never answers)', async () => {
    const plain = await startRedisServer();
    try {
      const error = await refusal(plain.url, { tls: { ca: access().ca }, connectTimeoutMs: 500 });
      expect(error.message).toBe(
        `Cannot connect to Redis at redis://127.0.0.1:${plain.port}: connect timeout. Start redis-server or fix the URL (--redis / REDIS_URL), or, with tls set, connect to Redis's TLS port (tls-port) or remove tls.`,
      );
    } finally {
      await plain.dispose();
    }
  });

  it("names tls.ca when the server's certificate is not signed by a trusted CA", async () => {
    const error = await refusal(started().url, { tls: true, ...DATA_USER });
    expect(error.message).toContain('self-signed certificate in certificate chain');
    expect(error.message).toContain('set tls.ca to the CA certificate that signed it');
  });

  it('names tls.cert and tls.key when the server asks for a client certificate', async () => {
    if (strict === undefined) throw new Error('the strict server did not start');
    const error = await refusal(strict.url, { tls: { ca: access().ca }, ...DATA_USER });
    expect(error.message).toContain('Redis asks for a client certificate: set tls.cert and tls.key');
    const connection = await connectRedis(strict.url, libraryOptions(access()));
    expect(await connection.ping()).toBe('PONG');
    await connection.destroy();
  });

  it('names username and password on a wrong password or none, never showing the password', async () => {
    const wrong = await refusal(started().url, {
      tls: { ca: access().ca },
      username: 'mcp-resolve',
      password: 'nope-3141',
    });
    expect(wrong.message).toMatch(
      /: WRONGPASS [^.]*\.\. Redis refused the user and password \(WRONGPASS\): set username and password \(or put them in the URL\) to an ACL user Redis enables\.$/,
    );
    expect(wrong.message).not.toContain('nope-3141');
    const none = await refusal(started().url, { tls: { ca: access().ca } });
    expect(none.message).toMatch(
      /Redis requires a login \(NOAUTH\): set username and password \(or put them in the URL\) to an ACL user Redis enables\.$/,
    );
    const inUrl = await refusal(`rediss://mcp-resolve:nope-3141@127.0.0.1:${started().port}`, {
      tls: { ca: access().ca },
    });
    expect(inUrl.message).toContain(`rediss://mcp-resolve:***@127.0.0.1:${started().port}`);
    expect(inUrl.message).not.toContain('nope-3141');
  });
});

describe('managed Redis, one server: an ACL user without enough rights', () => {
  /** Creates the ACL user `name` with the guide's rules for the library, then `extra`. */
  async function userWith(name: string, extra: string[]): Promise<RedisConnectOptions> {
    const rules = guideAclLines().data.split(' ').slice(4);
    const password = `${name}-secret`;
    await commandAt(
      started().port,
      ['ACL', 'SETUSER', name, 'reset', 'on', `>${password}`, ...rules, ...extra],
      access(),
    );
    return { tls: { ca: access().ca }, username: name, password };
  }

  it('refuses the fleet at connect when the user may not run scripts, naming the ACL rule', async () => {
    const options = await userWith('no-scripts', ['-eval']);
    const error = await connectRedisFleet({ url: started().url, ...options }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(McpResolveError);
    expect((error as Error).message).toMatch(/refused the replay epoch record \(NOPERM[^)]*'eval'/);
    expect((error as Error).message).toContain(
      'grant its ACL user the rule in the Managed Redis section of the scaling guide',
    );
  });

  it("fails a replay check and a task read closed, naming the grant, on keys the user's ACL does not cover", async () => {
    // Only the epoch record of the replay guard: the fleet starts, then each token's key is refused.
    const options = await userWith('epoch-only', ['resetkeys', '~{mcp-resolve:replay:}epoch']);
    const fleet = await connectRedisFleet({ url: started().url, ...options });
    try {
      const grant = "Redis's ACL refused the command (NOPERM";
      const hint = 'grant its ACL user the rule in the Managed Redis section of the scaling guide';
      const consumed = fleet.replayStore.consume('t-acl', Date.now() + 60_000, Date.now());
      await expect(consumed).rejects.toThrow(/^Replay check failed: Redis's ACL refused the command \(NOPERM/);
      await expect(consumed).rejects.toThrow(hint);
      const tasks = createRedisTaskStore(fleet.redis);
      await expect(tasks.get('task-acl')).rejects.toThrow(`Task store: the read of task task-acl failed: ${grant}`);
    } finally {
      await fleet.close();
    }
  });

  it('starts with one warning naming the grant when the user may not run CONFIG GET', async () => {
    const options = await userWith('no-config', ['-config|get']);
    const warnings: string[] = [];
    const fleet = await connectRedisFleet({
      url: started().url,
      ...options,
      onerror: (error) => void warnings.push(error.message),
    });
    await fleet.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('the ACL user may not run CONFIG GET on Redis at');
    expect(warnings[0]).toContain('or grant the user +config|get.');
  });
});
