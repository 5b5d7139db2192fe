/**
 * The `oauth` option at work: the protected resource metadata document (RFC 9728) and the bearer
 * check of every MCP request, answering 401/403 with the `WWW-Authenticate` challenge the MCP
 * authorization specification asks for (`resource_metadata`, and `scope` when scopes are required).
 */
import type { AuthInfo, OAuthTokenVerifier } from '@modelcontextprotocol/server';
import {
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  requireBearerAuth,
} from '@modelcontextprotocol/server';

import { issuerEndpoints } from './discovery.js';
import { introspectedAccessTokens } from './introspection.js';
import { jwtAccessTokens } from './jwtAccessToken.js';
import type { ResolvedOAuthOptions } from './options.js';

/** What a host asks of the `oauth` option. */
export interface OAuthGate {
  /** The protected resource metadata response when `request` asks for that document, else `undefined`. */
  metadata(request: Request): Response | undefined;
  /** The verified token's `AuthInfo`, or the response to answer instead (401, 403; 500 when the issuer cannot be reached). */
  authenticate(request: Request): Promise<AuthInfo | Response>;
}

/** Three dot-separated base64url parts: a JWS compact serialization (a JWT access token). */
const JWS_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/** The gate for `options` on the MCP endpoint `path`; `report` receives failures to reach the issuer. */
export function createOAuthGate(
  api: string,
  options: ResolvedOAuthOptions,
  path: string,
  report: (error: unknown) => void,
): OAuthGate {
  const { issuer, fetchTimeoutMs, introspection } = options;
  const endpoints = issuerEndpoints(issuer, fetchTimeoutMs);
  const jwksUri = async () => (await endpoints()).jwksUri ?? missing(issuer, 'jwks_uri');
  const introspectionEndpoint = async () =>
    (await endpoints()).introspectionEndpoint ?? missing(issuer, 'introspection_endpoint');
  const jwt = jwtAccessTokens(api, issuer, jwksUri, fetchTimeoutMs);
  const opaque =
    introspection === undefined
      ? undefined
      : introspectedAccessTokens(issuer, introspection, introspectionEndpoint, fetchTimeoutMs);
  const resourceOf = (request: Request): string => options.resource ?? new URL(path, request.url).href;
  const metadataPath = new URL(getOAuthProtectedResourceMetadataUrl(new URL(options.resource ?? `http://host${path}`)))
    .pathname;

  async function verify(token: string, resource: string): Promise<AuthInfo> {
    if (token.length > options.maxTokenBytes) {
      throw new OAuthError(
        OAuthErrorCode.InvalidToken,
        `The access token is longer than ${options.maxTokenBytes} bytes`,
      );
    }
    try {
      return opaque === undefined || JWS_SHAPE.test(token) ? await jwt(token, resource) : await opaque(token, resource);
    } catch (error) {
      if (error instanceof OAuthError) throw error;
      report(error);
      throw new OAuthError(OAuthErrorCode.ServerError, 'The access token could not be checked now');
    }
  }

  return {
    metadata(request) {
      if (new URL(request.url).pathname !== metadataPath) return undefined;
      return metadataResponse(request, {
        resource: resourceOf(request),
        authorization_servers: [issuer],
        ...(options.scopes.length > 0 && { scopes_supported: [...options.scopes] }),
        bearer_methods_supported: ['header'],
        ...(options.resourceName !== undefined && { resource_name: options.resourceName }),
      });
    },
    authenticate(request) {
      const resource = resourceOf(request);
      const verifier: OAuthTokenVerifier = { verifyAccessToken: (token) => verify(token, resource) };
      return requireBearerAuth({
        verifier,
        requiredScopes: [...options.scopes],
        resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(resource)),
        expectedResource: new URL(resource),
      })(request);
    },
  };
}

function missing(issuer: string, field: string): never {
  throw new Error(`the metadata of ${issuer} has no ${field}`);
}

/** The metadata document: public, so any origin may read it (CORS `*`); GET and HEAD only. */
function metadataResponse(request: Request, document: Record<string, unknown>): Response {
  const cors = { 'Access-Control-Allow-Origin': '*' };
  if (request.method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: { ...cors, 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS', 'Access-Control-Allow-Headers': '*' },
    });
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(null, { status: 405, headers: { ...cors, Allow: 'GET, HEAD, OPTIONS' } });
  }
  return Response.json(document, { headers: { ...cors, 'Cache-Control': 'max-age=3600' } });
}
