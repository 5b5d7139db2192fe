/**
 * Hosting: both protocol eras of one server factory over HTTP (one URL path) or stdio.
 * `createDualEraHandler` is web-standard; `serveHttp` and `serveStdio` need Node.
 */

export { createDualEraHandler, INSTANCE_HEADER } from './dualEraHandler.js';
export type { DualEraHandler } from './dualEraHandler.js';
export { serveHttp } from './http.js';
export type { HttpServerHandle, ServeHttpOptions } from './http.js';
export type { DualEraHttpOptions } from './options.js';
export { createMemorySessionHub } from './sessionFleet.js';
export type {
  FleetMessage,
  FleetNotification,
  LegacySessionFleet,
  MemorySessionHub,
  SharedSessionRecord,
} from './sessionFleet.js';
export { serveStdio } from './stdio.js';
export type { ServeStdioOptions, StdioServerHandle } from './stdio.js';
