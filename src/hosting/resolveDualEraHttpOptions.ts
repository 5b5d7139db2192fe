/** `resolveDualEraHttpOptions`: the dual-era host's options with their defaults, checked group by group. */
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
} from '@modelcontextprotocol/server';

import { DEFAULT_MAX_RELAYED_ANSWER_BYTES } from './legacy/fleet/fleetRelay.js';
import type { LegacySessionLimits } from './legacy/leg/legRoutes.js';
import type { DualEraHttpOptions, ResolvedDualEraHttpOptions } from './options.js';
import {
  DEFAULT_LEGACY_SESSION_BUDGET_BYTES,
  DEFAULT_LEGACY_SESSION_IDLE_MS,
  DEFAULT_MAX_CLIENT_CAPABILITIES_BYTES,
  DEFAULT_MAX_LEGACY_SESSION_BYTES,
  DEFAULT_MAX_LEGACY_SESSIONS,
  DEFAULT_MAX_LEGACY_SESSIONS_PER_CLIENT,
} from './options.js';
import { hostnameList, invalidOption, positiveInteger } from '../optionChecks.js';
import { resolveOAuthOptions } from '../auth/options.js';

/** The largest delay `setTimeout` honours; longer delays fire immediately in Node. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** Applies defaults to `options` and throws {@link McpResolveError} (`invalid_options`) on a value it cannot use. */
export function resolveDualEraHttpOptions(api: string, options: DualEraHttpOptions = {}): ResolvedDualEraHttpOptions {
  // Checked in this order: the first option at fault is the one named.
  const path = options.path ?? '/mcp';
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw invalidOption(
      api,
      'path',
      `must start with '/' (got ${JSON.stringify(path)})`,
      "Pass for example path: '/mcp'.",
    );
  }
  const sessions = sessionLimits(api, options);
  const fleet = clientAndFleet(api, options);
  const maxRelayedAnswerBytes = positiveInteger(
    api,
    'maxRelayedAnswerBytes',
    options.maxRelayedAnswerBytes,
    DEFAULT_MAX_RELAYED_ANSWER_BYTES,
    { unit: 'number of bytes', statesDefault: true },
  );
  const maxRequestBodyBytes = positiveInteger(
    api,
    'maxRequestBodyBytes',
    options.maxRequestBodyBytes,
    DEFAULT_MAX_REQUEST_BODY_SIZE,
    { unit: 'number of bytes', statesDefault: true },
  );
  const legacy = options.legacy ?? 'sessions';
  if (legacy !== 'sessions' && legacy !== 'reject') {
    throw invalidOption(
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
    ...sessions,
    ...fleet,
    maxRelayedAnswerBytes,
    maxRequestBodyBytes,
    oauth: options.oauth === undefined ? undefined : resolveOAuthOptions(api, options.oauth),
    onerror: options.onerror ?? ignoreError,
  };
}

type SessionLimits = Omit<LegacySessionLimits, 'onerror'>;

/** The idle lifetime and the count and size limits of legacy sessions. */
function sessionLimits(api: string, options: DualEraHttpOptions): SessionLimits {
  const legacySessionIdleMs = options.legacySessionIdleMs ?? DEFAULT_LEGACY_SESSION_IDLE_MS;
  if (
    typeof legacySessionIdleMs !== 'number' ||
    Number.isNaN(legacySessionIdleMs) ||
    legacySessionIdleMs <= 0 ||
    (Number.isFinite(legacySessionIdleMs) && legacySessionIdleMs > MAX_TIMER_DELAY_MS)
  ) {
    throw invalidOption(
      api,
      'legacySessionIdleMs',
      `must be a positive number of milliseconds up to ${MAX_TIMER_DELAY_MS} (got ${String(legacySessionIdleMs)})`,
      'Pass Infinity to never close idle sessions.',
    );
  }
  return {
    legacySessionIdleMs,
    maxLegacySessions: positiveInteger(
      api,
      'maxLegacySessions',
      options.maxLegacySessions,
      DEFAULT_MAX_LEGACY_SESSIONS,
      { statesDefault: true },
    ),
    maxClientCapabilitiesHeldBytes: positiveInteger(
      api,
      'maxClientCapabilitiesHeldBytes',
      options.maxClientCapabilitiesHeldBytes,
      DEFAULT_MAX_CLIENT_CAPABILITIES_BYTES,
      { statesDefault: true },
    ),
    maxLegacySessionHeldBytes: positiveInteger(
      api,
      'maxLegacySessionHeldBytes',
      options.maxLegacySessionHeldBytes,
      DEFAULT_MAX_LEGACY_SESSION_BYTES,
      { statesDefault: true },
    ),
    legacySessionBudgetHeldBytes: positiveInteger(
      api,
      'legacySessionBudgetHeldBytes',
      options.legacySessionBudgetHeldBytes,
      DEFAULT_LEGACY_SESSION_BUDGET_BYTES,
      { statesDefault: true },
    ),
    maxLegacySessionsPerClient: positiveInteger(
      api,
      'maxLegacySessionsPerClient',
      options.maxLegacySessionsPerClient,
      DEFAULT_MAX_LEGACY_SESSIONS_PER_CLIENT,
      { statesDefault: true },
    ),
  };
}

/** How a client is told apart (`clientAddress`) and where sessions are shared (`sessionFleet`). */
function clientAndFleet(
  api: string,
  options: DualEraHttpOptions,
): Pick<ResolvedDualEraHttpOptions, 'clientAddress' | 'sessionFleet'> {
  const clientAddress = options.clientAddress;
  if (clientAddress !== undefined && typeof clientAddress !== 'function') {
    throw invalidOption(
      api,
      'clientAddress',
      `must be a function of the request (got ${typeof clientAddress})`,
      "Pass for example (request) => request.headers.get('cf-connecting-ip').",
    );
  }
  const sessionFleet = options.sessionFleet;
  if (
    sessionFleet !== undefined &&
    (typeof sessionFleet !== 'object' || typeof sessionFleet?.instanceId !== 'string')
  ) {
    throw invalidOption(
      api,
      'sessionFleet',
      'must be a LegacySessionFleet (an object with instanceId, save, load, …)',
      'Pass connectRedisFleet(...).sessions from mcp-resolve/redis, or createMemorySessionHub().member().',
    );
  }
  return { clientAddress, sessionFleet };
}

/** The resolved options the legacy leg takes as they are, under their public names. */
export type LegacyLegOptions = SessionLimits &
  Pick<ResolvedDualEraHttpOptions, 'sessionFleet' | 'maxRelayedAnswerBytes'>;

/** {@link LegacyLegOptions} of `resolved`, and nothing else of it. */
export function legacyLegOptions(resolved: ResolvedDualEraHttpOptions): LegacyLegOptions {
  const { legacySessionIdleMs, maxLegacySessions, maxClientCapabilitiesHeldBytes, maxLegacySessionHeldBytes } =
    resolved;
  const { legacySessionBudgetHeldBytes, maxLegacySessionsPerClient, sessionFleet, maxRelayedAnswerBytes } = resolved;
  return {
    legacySessionIdleMs,
    maxLegacySessions,
    maxClientCapabilitiesHeldBytes,
    maxLegacySessionHeldBytes,
    legacySessionBudgetHeldBytes,
    maxLegacySessionsPerClient,
    sessionFleet,
    maxRelayedAnswerBytes,
  };
}

function ignoreError(): void {}

/** `onerror` for anything thrown: never throws itself (reporting must never change a response). */
export function reporter(onerror: (error: Error) => void): (error: unknown) => void {
  return (error) => {
    try {
      onerror(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // Reporting must never change a response.
    }
  };
}
