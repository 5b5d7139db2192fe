/**
 * Managed-Redis access for tests and scripts: a throwaway CA with a server and a client certificate
 * (made with `openssl`, for 127.0.0.1 and localhost), ACL files, and the redis-server / sentinel
 * arguments that make a node speak only TLS and require an ACL login. An `admin` user (all
 * commands) lets the launchers set up replication, sentinels and clusters.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { RedisClientOptions } from 'redis';

/** TLS and ACL settings of every node of a test deployment. */
export interface RedisAccessSetup {
  /** The CA certificate (PEM) that signed the server's and the client's certificates. */
  readonly ca: string;
  /** A client certificate and its key (PEM), signed by `ca`. */
  readonly clientCert: string;
  readonly clientKey: string;
  /** Whether the nodes ask for a client certificate (`yes`) or accept one (`optional`). */
  readonly authClients: 'yes' | 'optional';
  /** The user the launchers log in as (all commands), for replication, sentinels and cluster setup. */
  readonly admin: { readonly username: string; readonly password: string };
  /** The redis-server arguments for a node listening on `port` (TLS only). */
  serverArgs(port: number): string[];
  /** The redis-sentinel arguments for a sentinel listening on `port` (TLS only; TLS to the nodes and the other sentinels). */
  sentinelArgs(port: number): string[];
  /** The lines of a sentinel's configuration file for a master named `masterName` (TLS, its own ACL users, the admin login). */
  sentinelLines(masterName: string): string[];
  /** redis-cli's TLS and login arguments. */
  cliArgs(): string[];
  /** node-redis options that log the admin in over TLS (with the client certificate). */
  adminOptions(): Pick<RedisClientOptions, 'username' | 'password'> & {
    socket: { tls: true; ca: string; cert: string; key: string };
  };
  /** Removes the files. */
  dispose(): void;
}

/** What {@link createRedisAccess} sets up. */
export interface RedisAccessOptions {
  /** `yes`: a client without a certificate is refused (default `optional`). */
  readonly authClients?: 'yes' | 'optional';
  /** ACL `user …` lines of the data nodes, besides the admin (`default` is off). */
  readonly users: readonly string[];
  /** ACL `user …` lines of the sentinels, besides the admin. */
  readonly sentinelUsers?: readonly string[];
}

const ADMIN = { username: 'admin', password: 'admin-secret-7f3a' };

/** Runs openssl with `args` in `dir`; throws its output when it fails. */
function openssl(dir: string, args: string[]): void {
  const run = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (run.error !== undefined) throw new Error('openssl is not installed. Install it with: apt-get install -y openssl');
  if (run.status !== 0) throw new Error(`openssl ${args.join(' ')} failed:\n${run.stderr}`);
}

/** Makes `name.key` and `name.crt` in `dir`, signed by the CA there (`ext`: the extensions file, if any). */
function signed(dir: string, name: string, subject: string, ext?: string): void {
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, ['req', ...key, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    ...(ext === undefined ? [] : ['-extfile', ext]),
  ]);
}

/** Makes the certificates and ACL files in a throwaway directory. */
export function createRedisAccess(options: RedisAccessOptions): RedisAccessSetup {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-resolve-tls-'));
  try {
    const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    openssl(dir, [
      'req',
      '-x509',
      ...key,
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '2',
      '-subj',
      '/CN=mcp-resolve test CA',
    ]);
    writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    signed(dir, 'server', '/CN=localhost', 'san.ext');
    signed(dir, 'client', '/CN=mcp-resolve test client');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const admin = `user ${ADMIN.username} on >${ADMIN.password} ~* &* +@all`;
  writeFileSync(join(dir, 'data.acl'), ['user default off', admin, ...options.users, ''].join('\n'));
  writeFileSync(
    join(dir, 'sentinel.acl'),
    ['user default off', admin, ...(options.sentinelUsers ?? []), ''].join('\n'),
  );
  const file = (name: string) => join(dir, name);
  const pem = (name: string) => readFileSync(file(name), 'utf8');
  const authClients = options.authClients ?? 'optional';
  const tlsArgs = (port: number) => [
    '--port',
    '0',
    '--tls-port',
    String(port),
    '--tls-cert-file',
    file('server.crt'),
    '--tls-key-file',
    file('server.key'),
    '--tls-ca-cert-file',
    file('ca.crt'),
    '--tls-auth-clients',
    authClients,
    '--tls-replication',
    'yes',
  ];
  return {
    ca: pem('ca.crt'),
    clientCert: pem('client.crt'),
    clientKey: pem('client.key'),
    authClients,
    admin: ADMIN,
    serverArgs: (port) => [
      ...tlsArgs(port),
      '--aclfile',
      file('data.acl'),
      '--masteruser',
      ADMIN.username,
      '--masterauth',
      ADMIN.password,
    ],
    sentinelArgs: tlsArgs,
    sentinelLines: (masterName) => [
      `aclfile ${file('sentinel.acl')}`,
      `sentinel auth-user ${masterName} ${ADMIN.username}`,
      `sentinel auth-pass ${masterName} ${ADMIN.password}`,
      `sentinel sentinel-user ${ADMIN.username}`,
      `sentinel sentinel-pass ${ADMIN.password}`,
    ],
    cliArgs: () => [
      '--tls',
      '--cacert',
      file('ca.crt'),
      '--cert',
      file('client.crt'),
      '--key',
      file('client.key'),
      '--user',
      ADMIN.username,
      '--pass',
      ADMIN.password,
    ],
    adminOptions: () => ({
      username: ADMIN.username,
      password: ADMIN.password,
      socket: { tls: true, ca: pem('ca.crt'), cert: pem('client.crt'), key: pem('client.key') },
    }),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
