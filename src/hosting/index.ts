/**
 * Hosting that runs on every runtime: one Web-standard `fetch` handler serving both protocol eras
 * of one server on one URL path. Node hosting (`serveHttp`, `serveStdio`) is `mcp-resolve/node`.
 */

export { createDualEraHandler, INSTANCE_HEADER } from './dualEraHandler.js';
export type { DualEraHandler } from './dualEraHandler.js';
export type { DualEraHttpOptions } from './options.js';
export { createMemorySessionHub } from './sessionFleet.js';
export type {
  FleetMessage,
  FleetNotification,
  LegacySessionFleet,
  MemorySessionHub,
  SharedSessionRecord,
} from './sessionFleet.js';
export type { ServerSource } from './source.js';
