/**
 * Hosting: both protocol eras of one server factory over HTTP (one URL path) or stdio.
 * `createDualEraHandler` is web-standard; `serveHttp` and `serveStdio` need Node.
 */

export { createDualEraHandler } from './dualEraHandler.js';
export type { DualEraHandler } from './dualEraHandler.js';
export { serveHttp } from './http.js';
export type { HttpServerHandle, ServeHttpOptions } from './http.js';
export type { DualEraHttpOptions } from './options.js';
export { serveStdio } from './stdio.js';
export type { ServeStdioOptions, StdioServerHandle } from './stdio.js';
