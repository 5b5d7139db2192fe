/**
 * Hosting: both protocol eras of one server factory over HTTP (one URL path) or stdio.
 */

export { createDualEraHandler, serveHttp } from './http.js';
export type { DualEraHandler, DualEraHttpOptions, HttpServerHandle, ServeHttpOptions } from './http.js';
export { serveStdio } from './stdio.js';
export type { ServeStdioOptions, StdioServerHandle } from './stdio.js';
