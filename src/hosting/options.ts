/**
 * Options of the dual-era HTTP host, their defaults, and their validation at construction.
 */

import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
} from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import { DEFAULT_MAX_RELAYED_ANSWER_BYTES } from './fleetRelay.js';
import type { LegacySessionFleet } from './sessionFleet.js';

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
   * Milliseconds a legacy session may sit with no request and no open response stream before it is
   * closed; `Infinity` keeps idle sessions until DELETE or `close()`.
   * @default 1_800_000 (30 minutes)
   */
  legacySessionIdleMs?: number;
  /**
   * Most legacy sessions this instance holds at once. Over it, a new session is refused with HTTP
   * 503, a `Retry-After` header (when the oldest idle session expires) and a JSON-RPC error: no
   * live session is ever dropped to make room. In a fleet, the local copies are a cache of the
   * shared store, so the oldest idle copy is closed first (the session itself lives on).
   * @default 1_000 (≈ 48 MB of initialize-only sessions, measured)
   */
  maxLegacySessions?: number;
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
  maxRequestBodySize?: number;
  /** Receives out-of-band errors and rejected requests (reporting only; responses are unaffected). */
  onerror?: (error: Error) => void;
}

/** {@link DualEraHttpOptions} with every default applied. */
export interface ResolvedDualEraHttpOptions {
  readonly path: string;
  readonly allowedHosts: string[];
  readonly allowedOrigins: string[];
  readonly legacySessionIdleMs: number;
  readonly maxLegacySessions: number;
  readonly sessionFleet: LegacySessionFleet | undefined;
  readonly maxRelayedAnswerBytes: number;
  readonly legacy: 'sessions' | 'reject';
  readonly maxRequestBodySize: number;
  readonly onerror: (error: Error) => void;
}

/** The default cap on live legacy sessions per instance. */
export const DEFAULT_MAX_LEGACY_SESSIONS = 1_000;

/** The default idle lifetime of a legacy session. */
export const DEFAULT_LEGACY_SESSION_IDLE_MS = 30 * 60 * 1000;

/** The largest delay `setTimeout` honours; longer delays fire immediately in Node. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** Applies defaults to `options` and throws {@link McpResolveError} (`invalid_options`) on a value it cannot use. */
export function resolveDualEraHttpOptions(api: string, options: DualEraHttpOptions = {}): ResolvedDualEraHttpOptions {
  const path = options.path ?? '/mcp';
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw invalid(api, 'path', `must start with '/' (got ${JSON.stringify(path)})`, "Pass for example path: '/mcp'.");
  }
  const legacySessionIdleMs = options.legacySessionIdleMs ?? DEFAULT_LEGACY_SESSION_IDLE_MS;
  if (
    typeof legacySessionIdleMs !== 'number' ||
    Number.isNaN(legacySessionIdleMs) ||
    legacySessionIdleMs <= 0 ||
    (Number.isFinite(legacySessionIdleMs) && legacySessionIdleMs > MAX_TIMER_DELAY_MS)
  ) {
    throw invalid(
      api,
      'legacySessionIdleMs',
      `must be a positive number of milliseconds up to ${MAX_TIMER_DELAY_MS} (got ${String(legacySessionIdleMs)})`,
      'Pass Infinity to never close idle sessions.',
    );
  }
  const maxLegacySessions = options.maxLegacySessions ?? DEFAULT_MAX_LEGACY_SESSIONS;
  if (!Number.isSafeInteger(maxLegacySessions) || maxLegacySessions < 1) {
    throw invalid(
      api,
      'maxLegacySessions',
      `must be a positive integer (got ${String(maxLegacySessions)})`,
      `The default is ${DEFAULT_MAX_LEGACY_SESSIONS}.`,
    );
  }
  const sessionFleet = options.sessionFleet;
  if (
    sessionFleet !== undefined &&
    (typeof sessionFleet !== 'object' || typeof sessionFleet?.instanceId !== 'string')
  ) {
    throw invalid(
      api,
      'sessionFleet',
      'must be a LegacySessionFleet (an object with instanceId, save, load, …)',
      'Pass connectRedisFleet(...).sessions from mcp-resolve/redis, or createMemorySessionHub().member().',
    );
  }
  const maxRelayedAnswerBytes = options.maxRelayedAnswerBytes ?? DEFAULT_MAX_RELAYED_ANSWER_BYTES;
  if (!Number.isSafeInteger(maxRelayedAnswerBytes) || maxRelayedAnswerBytes <= 0) {
    throw invalid(
      api,
      'maxRelayedAnswerBytes',
      `must be a positive integer number of bytes (got ${String(maxRelayedAnswerBytes)})`,
      `The default is ${DEFAULT_MAX_RELAYED_ANSWER_BYTES}.`,
    );
  }
  const maxRequestBodySize = options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  if (!Number.isSafeInteger(maxRequestBodySize) || maxRequestBodySize <= 0) {
    throw invalid(
      api,
      'maxRequestBodySize',
      `must be a positive integer number of bytes (got ${String(maxRequestBodySize)})`,
      `The default is ${DEFAULT_MAX_REQUEST_BODY_SIZE}.`,
    );
  }
  const legacy = options.legacy ?? 'sessions';
  if (legacy !== 'sessions' && legacy !== 'reject') {
    throw invalid(
      api,
      'legacy',
      `must be 'sessions' or 'reject' (got ${JSON.stringify(legacy)})`,
      "Omit it for 'sessions'.",
    );
  }
  return {
    path,
    legacy,
    allowedHosts: hostnameList(api, 'allowedHosts', options.allowedHosts) ?? localhostAllowedHostnames(),
    allowedOrigins: hostnameList(api, 'allowedOrigins', options.allowedOrigins) ?? localhostAllowedOrigins(),
    legacySessionIdleMs,
    maxLegacySessions,
    sessionFleet,
    maxRelayedAnswerBytes,
    maxRequestBodySize,
    onerror: options.onerror ?? ignoreError,
  };
}

function hostnameList(api: string, name: string, value: string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.some((entry) => typeof entry !== 'string' || entry === '')) {
    throw invalid(
      api,
      name,
      `must be a non-empty array of hostnames (got ${JSON.stringify(value)})`,
      "List hostnames without port, for example ['localhost', 'mcp.example.com'].",
    );
  }
  return [...value];
}

/** `invalid_options` for `api`'s `option`; the message reads `<api>: <option> <problem>. <fix>`. */
function invalid(api: string, option: string, problem: string, fix: string): McpResolveError {
  return new McpResolveError('invalid_options', `${api}: ${option} ${problem}. ${fix}`, { data: { api, option } });
}

function ignoreError(): void {}
