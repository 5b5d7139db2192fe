/**
 * Hosting that runs on every runtime: one Web-standard `fetch` handler serving both protocol eras
 * of one server on one URL path. Node hosting (`serveHttp`, `serveStdio`) is `mcp-resolve/node`;
 * the fleet's shared session contract is `mcp-resolve/contracts`.
 */

export { createDualEraHandler } from './dualEraHandler.js';
export type { DualEraHandler, DualEraRequestOptions } from './dualEraHandler.js';
export type { DualEraHttpOptions } from './options.js';
export type { OAuthIntrospectionOptions, OAuthOptions } from '../auth/options.js';
export type { ServerSource } from './source.js';
