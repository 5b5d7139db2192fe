/**
 * Options of the dual-era HTTP host and their defaults (checked by resolveDualEraHttpOptions.ts).
 */

import type { OAuthOptions, ResolvedOAuthOptions } from '../auth/options.js';
import type { ClientAddressOption } from './clientAddressing.js';
import type { LegacySessionLimits } from './legacy/leg/legRoutes.js';
import type { LegacySessionFleet } from './legacy/sessionFleet.js';

/** Options of {@link createDualEraHandler}. */
export interface DualEraHttpOptions {
  /** The one URL path both eras are served on; other paths answer 404. @default '/mcp' */
  path?: string;
  /**
   * `Host` header hostnames (no port; IPv6 in brackets) accepted by the DNS-rebinding guard.
   * @default localhostAllowedHostnames() — `localhost`, `127.0.0.1`, `[::1]`
   */
  allowedHosts?: string[];
  /**
   * `Origin` hostnames accepted when a request carries an `Origin` header (requests without one pass).
   * @default localhostAllowedOrigins()
   */
  allowedOrigins?: string[];
  /**
   * Milliseconds a legacy session may sit with no request in flight before it is closed, its GET
   * stream included (an open GET stream alone does not keep it); `Infinity` keeps idle sessions
   * until DELETE or `close()`.
   * @default 1_800_000 (30 minutes)
   */
  legacySessionIdleMs?: number;
  /**
   * Most legacy sessions this instance holds at once. Over it, a new session is refused with HTTP
   * 503, a `Retry-After` header (when the oldest idle session expires) and a JSON-RPC error: no
   * live session is ever dropped to make room. In a fleet, the local copies are a cache of the
   * shared store, so the oldest idle copy is closed first (the session itself lives on).
   * With a `sessionFleet`, the shared store also enforces it across the fleet.
   * @default 1_000
   */
  maxLegacySessions?: number;
  /**
   * Largest `params.capabilities` a legacy `initialize` may declare, in held bytes (the security
   * guide's "What a size counts": UTF-8 JSON plus 64 per object, array and key); a larger one
   * is refused with HTTP 400 and JSON-RPC `-32602` naming the size and the limit.
   * @default 16_384
   */
  maxClientCapabilitiesHeldBytes?: number;
  /**
   * Largest initialize params (protocol version, capabilities, client info; held bytes, as above) one
   * legacy session keeps, in memory and in the shared store; a larger `initialize` is refused with
   * HTTP 400 and JSON-RPC `-32602`.
   * @default 65_536
   */
  maxLegacySessionHeldBytes?: number;
  /**
   * Total held bytes of initialize params all legacy sessions may keep (across the fleet with a
   * `sessionFleet`, enforced in the shared store). Over it, a new session is refused with HTTP 503
   * and a `Retry-After` header.
   * @default 67_108_864 (64 MiB)
   */
  legacySessionBudgetHeldBytes?: number;
  /**
   * Most legacy sessions one client may hold open (across the fleet with a `sessionFleet`): the
   * authenticated principal, else the remote address (see `clientAddress`), else one shared
   * bucket. Over it, a new session from that client is refused with HTTP 429 and `Retry-After`.
   * @default 32
   */
  maxLegacySessionsPerClient?: number;
  /**
   * The remote address of an anonymous request, for `maxLegacySessionsPerClient`, given the
   * request and its socket address (set by `serveHttp`; `undefined` when the host gives none).
   * Behind a proxy, read the header it sets, and only when the request comes from it:
   * `(request, socketAddress) => (socketAddress === '10.0.0.2' ? request.headers.get('x-real-ip') : socketAddress)`.
   * `null`, `undefined` or `''` falls back to the socket address.
   * @default undefined — the socket address, else one bucket for every anonymous client; a request
   * with a `Forwarded`, `X-Forwarded-For` or `X-Real-IP` header from a loopback or private address
   * (a proxy's) counts against no client, and the first such request logs one warning
   */
  clientAddress?: (request: Request, socketAddress: string | undefined) => string | null | undefined;
  /**
   * Shares legacy sessions with other instances (e.g. `connectRedisFleet(...).sessions` from
   * `mcp-resolve/redis`): any instance then serves any request of any session, and every response
   * carries an `Mcp-Resolve-Instance` header naming the instance that served it.
   * @default undefined — sessions live in this process only
   */
  sessionFleet?: LegacySessionFleet;
  /**
   * With `sessionFleet`: the largest client answer (a JSON-RPC response, in bytes) relayed to the
   * instance whose push it answers. A larger one is refused with HTTP 413 and the push it answers
   * fails at once.
   * @default 1_048_576 (1 MiB)
   */
  maxRelayedAnswerBytes?: number;
  /**
   * How 2025-11-25 (legacy) clients are served: `'sessions'` holds a session per client in this
   * process so the server can push questions mid-call; `'reject'` refuses them with the SDK's
   * modern-only error (HTTP 400, JSON-RPC `-32022` "Unsupported protocol version: 2025-11-25" with
   * `data.supported: ['2026-07-28']`) — right on hosts
   * that cannot hold a session across requests, such as a Cloudflare Worker without a Durable Object.
   * @default 'sessions'
   */
  legacy?: 'sessions' | 'reject';
  /** Upper bound, in bytes, on a POST body; larger bodies answer 413. @default 4 MiB */
  maxRequestBodyBytes?: number;
  /**
   * Makes the endpoint an OAuth 2.1 resource server (the MCP authorization specification): every
   * MCP request needs a bearer access token from `oauth.issuer` issued for this server, checked
   * before MCP sees it (401/403 with a `WWW-Authenticate` challenge otherwise), and the protected
   * resource metadata is served at `/.well-known/oauth-protected-resource<path>`. Handlers read the
   * token as `ctx.http.authInfo`; its `iss` and `sub` are the principal every sealed state is bound
   * to. Needs the peer dependency `jose`. Requests for the server's own pages are not checked
   * (pages check their user with `answerPage.browserUser`).
   * @default undefined — requests carry no `AuthInfo` unless the host passes one
   */
  oauth?: OAuthOptions;
  /** Receives out-of-band errors and rejected requests (reporting only; responses are unaffected). */
  onerror?: (error: Error) => void;
}

/** {@link DualEraHttpOptions} with every default applied (the legacy leg's limits and `onerror` as it takes them). */
export interface ResolvedDualEraHttpOptions extends LegacySessionLimits {
  readonly path: string;
  readonly allowedHosts: string[];
  readonly allowedOrigins: string[];
  readonly clientAddress: ClientAddressOption | undefined;
  readonly sessionFleet: LegacySessionFleet | undefined;
  readonly maxRelayedAnswerBytes: number;
  readonly legacy: 'sessions' | 'reject';
  readonly maxRequestBodyBytes: number;
  readonly oauth: ResolvedOAuthOptions | undefined;
}

/** The default cap on live legacy sessions per instance. */
export const DEFAULT_MAX_LEGACY_SESSIONS = 1_000;

/** The default limit on the declared capabilities of a legacy `initialize`, in held bytes. */
export const DEFAULT_MAX_CLIENT_CAPABILITIES_BYTES = 16_384;

/** The default limit on the initialize params one legacy session keeps, in held bytes. */
export const DEFAULT_MAX_LEGACY_SESSION_BYTES = 65_536;

/** The default total of initialize params all legacy sessions keep, in held bytes. */
export const DEFAULT_LEGACY_SESSION_BUDGET_BYTES = 64 * 1024 * 1024;

/** The default limit on the legacy sessions one client holds open. */
export const DEFAULT_MAX_LEGACY_SESSIONS_PER_CLIENT = 32;

/** The default idle lifetime of a legacy session. */
export const DEFAULT_LEGACY_SESSION_IDLE_MS = 30 * 60 * 1000;
