/** The authorization server's metadata (RFC 8414, else OpenID Connect discovery), fetched once and kept. */
import { fetchJson } from './boundedFetch.js';

/** The parts of the authorization server's metadata a resource server reads. */
export interface IssuerEndpoints {
  readonly jwksUri: string | undefined;
  readonly introspectionEndpoint: string | undefined;
}

/**
 * Reads `issuer`'s metadata on first call and keeps it; a failed read is forgotten, so the next
 * request tries again. Rejects when the document names another issuer (RFC 8414, section 3.3).
 */
export function issuerEndpoints(issuer: string, timeoutMs: number): () => Promise<IssuerEndpoints> {
  let pending: Promise<IssuerEndpoints> | undefined;
  return () => {
    pending ??= discover(issuer, timeoutMs).catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

async function discover(issuer: string, timeoutMs: number): Promise<IssuerEndpoints> {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  let failure: unknown;
  for (const candidate of candidates) {
    let metadata: unknown;
    try {
      metadata = await fetchJson(candidate, { headers: { accept: 'application/json' } }, timeoutMs);
    } catch (error) {
      failure = error;
      continue;
    }
    const record = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {};
    if (record['issuer'] !== issuer) {
      throw new Error(`${candidate} names issuer ${JSON.stringify(record['issuer'])}, not ${JSON.stringify(issuer)}`);
    }
    return { jwksUri: stringAt(record, 'jwks_uri'), introspectionEndpoint: stringAt(record, 'introspection_endpoint') };
  }
  throw new Error(`no authorization server metadata for ${issuer}`, { cause: failure });
}

function stringAt(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}
