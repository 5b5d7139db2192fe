/**
 * How the library's connections reach Redis: TLS (the certificates to trust and to present) and
 * the ACL user, turned into node-redis client options for one server, every Sentinel-managed node,
 * the sentinels themselves, and every node of a Redis Cluster.
 */
import { McpResolveError } from '../errors.js';

/** TLS to Redis: PEM text (e.g. `readFileSync('ca.pem', 'utf8')`) of the certificates to trust and to present. */
export interface RedisTlsOptions {
  /** The CA certificate that signed Redis's certificate (default: Node's bundled CAs, which public providers' certificates chain to). */
  readonly ca?: string | Buffer;
  /** A client certificate, for a Redis that asks for one (`tls-auth-clients yes`); give `key` with it. */
  readonly cert?: string | Buffer;
  /** The private key of `cert`. */
  readonly key?: string | Buffer;
  /** The name Redis's certificate must carry, when it differs from the host connected to (also sent as SNI). */
  readonly servername?: string;
}

/** What a connection needs to get in: TLS and the ACL user. */
export interface RedisAccess {
  readonly tls?: true | RedisTlsOptions;
  readonly username?: string;
  readonly password?: string;
}

/** The TLS part of a node-redis socket: nothing without `tls`, else `tls: true` and the certificates given. */
export type TlsSocket =
  | { tls?: undefined }
  | { tls: true; ca?: string | Buffer; cert?: string | Buffer; key?: string | Buffer; servername?: string };

/** The socket fields that turn TLS on for `access` (checked: `cert` and `key` come together). */
export function tlsSocket(access: RedisAccess, api: string): TlsSocket {
  const { tls } = access;
  if (tls === undefined) return {};
  if (tls === true) return { tls: true };
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    const option = tls.cert === undefined ? 'tls.cert' : 'tls.key';
    throw new McpResolveError(
      'invalid_options',
      `${api}: ${option} is missing: a client certificate needs both tls.cert and tls.key (PEM text).`,
      { data: { api, option } },
    );
  }
  return {
    tls: true,
    ...(tls.ca !== undefined && { ca: tls.ca }),
    ...(tls.cert !== undefined && { cert: tls.cert }),
    ...(tls.key !== undefined && { key: tls.key }),
    ...(tls.servername !== undefined && { servername: tls.servername }),
  };
}

/** `username` and `password` as node-redis client options (only those given). */
export function credentials(access: { readonly username?: string; readonly password?: string }): {
  username?: string;
  password?: string;
} {
  return {
    ...(access.username !== undefined && { username: access.username }),
    ...(access.password !== undefined && { password: access.password }),
  };
}

/**
 * The URL to connect to with `access`: `tls` makes a `redis://` URL `rediss://`; credentials given
 * both in the URL and as `username`/`password` are refused (`invalid_options`), so one place says who connects.
 */
export function urlFor(url: string, access: RedisAccess, api: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if ((parsed.username !== '' || parsed.password !== '') && (access.username ?? access.password) !== undefined) {
    throw new McpResolveError(
      'invalid_options',
      `${api}: the Redis URL carries a user or password and username/password are set too; give them in one place (username and password, or the URL).`,
      { data: { api, option: access.username === undefined ? 'password' : 'username' } },
    );
  }
  return access.tls !== undefined && parsed.protocol === 'redis:' ? `rediss:${url.slice('redis:'.length)}` : url;
}
