/** The `oauth` option of the dual-era hosts: what it holds, and its check at construction. */
import { invalidOption, MILLISECONDS, positiveInteger } from '../optionChecks.js';

/** Client credentials for RFC 7662 token introspection (opaque access tokens). */
export interface OAuthIntrospectionOptions {
  /** This resource server's client id at the authorization server. */
  clientId: string;
  /** Its client secret, sent with HTTP Basic authentication to the issuer metadata's `introspection_endpoint`. */
  clientSecret: string;
}

/**
 * OAuth 2.1 resource server: MCP requests need a bearer access token from `issuer`, issued for this
 * server (`resource`, RFC 8707) with every scope in `scopes`.
 */
export interface OAuthOptions {
  /**
   * The authorization server's issuer identifier, exactly as its tokens' `iss` claim (HTTPS, or
   * `http` on a loopback host). Its metadata (RFC 8414, else OpenID Connect discovery) gives the
   * JWKS and the introspection endpoint.
   */
  issuer: string;
  /**
   * This server's resource identifier (RFC 8707): the `aud` every token must carry, and the
   * `resource` of the protected resource metadata (RFC 9728).
   * @default the MCP endpoint's URL as the request reached it (`http://127.0.0.1:3000/mcp`); set it
   * behind a proxy, where the public URL differs
   */
  resource?: string;
  /** Scopes every token must carry (403 `insufficient_scope` otherwise); also advertised. @default [] */
  scopes?: string[];
  /** Introspection for tokens that are not JWTs. @default undefined — only JWT access tokens are accepted */
  introspection?: OAuthIntrospectionOptions;
  /** Human-readable `resource_name` of the protected resource metadata. @default undefined */
  resourceName?: string;
  /** Milliseconds one request to the authorization server (metadata, keys, introspection) may take. @default 5_000 */
  fetchTimeoutMs?: number;
  /** Longest access token accepted, in bytes; a longer one is refused with 401 unread. @default 8_192 */
  maxTokenBytes?: number;
}

/** {@link OAuthOptions} checked, with defaults applied. */
export interface ResolvedOAuthOptions {
  readonly issuer: string;
  readonly resource: string | undefined;
  readonly scopes: readonly string[];
  readonly introspection: OAuthIntrospectionOptions | undefined;
  readonly resourceName: string | undefined;
  readonly fetchTimeoutMs: number;
  readonly maxTokenBytes: number;
}

const SCOPE_TOKEN = /^[\u0021\u0023-\u005B\u005D-\u007E]+$/;

/** Checks `options` (the `oauth` option of `api`); throws `invalid_options` naming the field at fault. */
export function resolveOAuthOptions(api: string, options: OAuthOptions): ResolvedOAuthOptions {
  const issuer = urlOption(api, 'oauth.issuer', options.issuer);
  const resource = options.resource === undefined ? undefined : urlOption(api, 'oauth.resource', options.resource);
  const scopes = options.scopes ?? [];
  if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string' || !SCOPE_TOKEN.test(scope))) {
    throw invalidOption(
      api,
      'oauth.scopes',
      `must be an array of OAuth scope tokens (got ${JSON.stringify(scopes)})`,
      "Pass for example scopes: ['mcp'].",
    );
  }
  const introspection = options.introspection;
  if (
    introspection !== undefined &&
    (typeof introspection.clientId !== 'string' ||
      introspection.clientId === '' ||
      typeof introspection.clientSecret !== 'string' ||
      introspection.clientSecret === '')
  ) {
    throw invalidOption(
      api,
      'oauth.introspection',
      'needs a non-empty clientId and clientSecret',
      'Register this server as a confidential client at the authorization server and pass its credentials.',
    );
  }
  return {
    issuer,
    resource,
    scopes: [...scopes],
    introspection,
    resourceName: options.resourceName,
    fetchTimeoutMs: positiveInteger(api, 'oauth.fetchTimeoutMs', options.fetchTimeoutMs, 5_000, {
      unit: MILLISECONDS,
      statesDefault: true,
    }),
    maxTokenBytes: positiveInteger(api, 'oauth.maxTokenBytes', options.maxTokenBytes, 8_192, {
      unit: 'number of bytes',
      statesDefault: true,
    }),
  };
}

/** `value` when it is an absolute URL without fragment, HTTPS or on a loopback host; else `invalid_options`. */
function urlOption(api: string, option: string, value: unknown): string {
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  if (
    url === undefined ||
    url.hash !== '' ||
    (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url)))
  ) {
    throw invalidOption(
      api,
      option,
      `must be an https URL without fragment, or http on a loopback host (got ${JSON.stringify(value)})`,
      'Pass the URL exactly as the authorization server names it.',
    );
  }
  return value as string;
}

function isLoopback(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}
