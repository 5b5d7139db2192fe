/**
 * Why a connection to Redis was refused, when TLS or the ACL is the reason, as the fix a message
 * names: the option to set (`tls`, `tls.ca`, `tls.cert` and `tls.key`, `username` and `password`)
 * or the ACL rule to grant. Never a secret: only Redis's and Node's own words are quoted.
 */
import { connect as connectTls } from 'node:tls';
import { isIP } from 'node:net';

import type { RedisAccess } from './transport.js';

/** Where the ACL rule the library needs is written down. */
export const ACL_RULE_HINT =
  'grant its ACL user the rule in the Managed Redis section of the scaling guide (the commands, ~{mcp-resolve:* keys and &mcp-resolve:* channels the library uses)';

/** What a store's message says Redis did with a failed command: its ACL refused it (naming the grant), or it did not answer. */
export function redisFailure(reason: string): string {
  return /\bNOPERM\b/.test(reason)
    ? `Redis's ACL refused the command (${reason}); ${ACL_RULE_HINT}`
    : `Redis did not answer (${reason})`;
}

/** TLS codes of a server certificate that no trusted CA signed. */
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** The codes and messages of `error` and its causes. */
function chain(error: unknown): { codes: string[]; text: string } {
  const codes: string[] = [];
  const texts: string[] = [];
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    if ('code' in at && typeof at.code === 'string') codes.push(at.code);
    texts.push(at.message);
  }
  return { codes, text: texts.join(' | ') };
}

/**
 * The fix for a connect error caused by TLS or the ACL (undefined for any other error, such as a
 * refused or reset connection): these never pass by retrying, so the connect stops at the first.
 * `sentinelCredentials` says whether the Sentinel target's own `username`/`password` apply.
 */
export function accessFix(error: unknown, access: RedisAccess, sentinelCredentials: boolean): string | undefined {
  const { codes, text } = chain(error);
  // node-redis words a sentinel's errors `Sentinel Client (host:port): …`, or `obseve client error: …` while it looks for the primary.
  const fromSentinel =
    sentinelCredentials && /^(?:Redis reported: )?(?:Sentinel Client \(|obser?ve client error)/.test(text);
  const login = fromSentinel
    ? "set username and password in the Sentinel target to the sentinels' ACL user"
    : 'set username and password (or put them in the URL) to an ACL user Redis enables';
  if (codes.includes('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED') || /certificate required/i.test(text))
    return 'Redis asks for a client certificate: set tls.cert and tls.key (PEM text of a certificate its tls-ca-cert-file trusts)';
  if (codes.some((code) => UNTRUSTED.has(code)))
    return "Redis's TLS certificate is not signed by a CA this process trusts: set tls.ca to the CA certificate that signed it (your provider publishes it)";
  if (codes.includes('ERR_TLS_CERT_ALTNAME_INVALID'))
    return "Redis's TLS certificate does not name the host connected to: connect by a name it carries, or set tls.servername to it";
  if (codes.includes('ERR_SSL_WRONG_VERSION_NUMBER') || codes.includes('ERR_SSL_PACKET_LENGTH_TOO_LONG'))
    return access.tls === undefined
      ? undefined
      : 'Redis does not speak TLS on that port: connect to its TLS port (tls-port), or remove tls (and use a redis:// URL)';
  const who = fromSentinel ? 'a sentinel' : 'Redis';
  if (/\bWRONGPASS\b/.test(text)) return `${who} refused the user and password (WRONGPASS): ${login}`;
  if (/\bNOAUTH\b/.test(text)) return `${who} requires a login (NOAUTH): ${login}`;
  if (/\bNOPERM\b/.test(text)) return `Redis refused a command the connection needs (NOPERM): ${ACL_RULE_HINT}`;
  return undefined;
}

/** Whether something on `host:port` completes a TLS handshake within `timeoutMs` (its certificate is not checked). */
export async function speaksTls(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTls({
      host,
      port,
      rejectUnauthorized: false,
      ...(isIP(host) === 0 && { servername: host }),
    });
    const done = (answer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

/** The fix for a connection without `tls` that failed where one of `addresses` speaks only TLS; undefined otherwise. */
export async function tlsOnlyFix(
  addresses: readonly { host: string; port: number }[],
  access: RedisAccess,
  timeoutMs: number,
): Promise<string | undefined> {
  if (access.tls !== undefined) return undefined;
  const answers = await Promise.all(addresses.map(({ host, port }) => speaksTls(host, port, timeoutMs)));
  const index = answers.indexOf(true);
  if (index < 0) return undefined;
  const { host, port } = addresses[index]!;
  return `${host}:${String(port)} speaks only TLS: set tls (or use a rediss:// URL)`;
}
