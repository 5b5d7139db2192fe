/** `resolveServerTimeouts`: serveHttp's port, timeout and connection options with their defaults, checked. */
import { McpResolveError } from '../errors.js';
import { positiveInteger } from '../optionChecks.js';

/** The default of `ServeHttpOptions.headersTimeoutMs`. */
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** The default of `ServeHttpOptions.requestTimeoutMs`. */
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** The default of `ServeHttpOptions.keepAliveTimeoutMs`. */
const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** The default of `ServeHttpOptions.maxConnections`. */
const DEFAULT_MAX_CONNECTIONS = 1_024;

/** The options of `serveHttp` checked here (see `ServeHttpOptions`). */
export interface ServerTimeoutOptions {
  port?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  maxConnections?: number;
}

/** {@link ServerTimeoutOptions} with every default applied. */
export interface ServerTimeouts {
  readonly port: number;
  readonly headersTimeout: number;
  readonly requestTimeout: number;
  readonly keepAliveTimeout: number;
  readonly maxConnections: number;
}

/** Applies defaults to `options` and throws `invalid_options` on a value `serveHttp` cannot use. */
export function resolveServerTimeouts(options: ServerTimeoutOptions): ServerTimeouts {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new McpResolveError(
      'invalid_options',
      `serveHttp(): port must be an integer from 0 to 65535 (got ${String(port)}). Pass 0 for a free port.`,
      { data: { api: 'serveHttp()', option: 'port' } },
    );
  }
  const api = 'serveHttp()';
  const headersTimeout = positiveInteger(
    api,
    'headersTimeoutMs',
    options.headersTimeoutMs,
    DEFAULT_HEADERS_TIMEOUT_MS,
    { statesDefault: true },
  );
  const requestTimeout = positiveInteger(
    api,
    'requestTimeoutMs',
    options.requestTimeoutMs,
    DEFAULT_REQUEST_TIMEOUT_MS,
    { statesDefault: true },
  );
  const keepAliveTimeout = positiveInteger(
    api,
    'keepAliveTimeoutMs',
    options.keepAliveTimeoutMs,
    DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    { statesDefault: true },
  );
  const maxConnections = positiveInteger(api, 'maxConnections', options.maxConnections, DEFAULT_MAX_CONNECTIONS, {
    statesDefault: true,
  });
  if (headersTimeout > requestTimeout) {
    throw new McpResolveError(
      'invalid_options',
      `${api}: headersTimeoutMs must not exceed requestTimeoutMs (got ${headersTimeout} > ${requestTimeout}). ` +
        'Raise requestTimeoutMs or lower headersTimeoutMs.',
      { data: { api, option: 'headersTimeoutMs' } },
    );
  }
  return { port, headersTimeout, requestTimeout, keepAliveTimeout, maxConnections };
}
