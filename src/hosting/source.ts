/** What the hosting functions serve: a `McpResolveServer` (anything with `createServer`) or an SDK server factory. */
import type { McpServerFactory } from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import type { HttpRoute } from '../channels/channel.js';
import type { InstanceReuse } from '../server/instanceReuse.js';
import type { Telemetry } from '../telemetry/hooks.js';

/** A `McpResolveServer`, or any SDK server factory (a fresh server per connection or request). */
export type ServerSource =
  | McpServerFactory
  | {
      readonly createServer: McpServerFactory;
      /** A `McpResolveServer`'s start-of-HTTP-hosting check (see `McpResolveServer.warnIfStateIsLocal`). */
      warnIfStateIsLocal?(hosting: string): void;
      /** A `McpResolveServer`'s observer: the hosting reports its legacy session table to it. */
      readonly telemetry?: Telemetry | undefined;
      /** A `McpResolveServer`'s channel routes: served beside the MCP endpoint. */
      readonly httpRoutes?: readonly HttpRoute[];
      /** A `McpResolveServer`'s instance reuse: HTTP hosting serves modern requests on long-lived instances while it allows. */
      readonly instanceReuse?: InstanceReuse;
    };

/** The factory behind a {@link ServerSource}; anything else is refused naming `caller`. */
export function factoryOf(server: ServerSource, caller: string): McpServerFactory {
  if (typeof server === 'function') return server;
  if (typeof server === 'object' && server !== null && typeof server.createServer === 'function') {
    return server.createServer;
  }
  throw new McpResolveError(
    'invalid_usage',
    `${caller} expects a McpResolveServer or an SDK server factory (() => McpServer), got ${describe(server)}.`,
    { data: { api: caller } },
  );
}

/** A {@link ServerSource} taken apart once for HTTP hosting: its factory, observer, channel routes and instance reuse. */
export interface HostedServer {
  readonly factory: McpServerFactory;
  /** Whether and while the factory's instances may serve request after request (SDK factories: never). */
  readonly reuse: InstanceReuse | undefined;
  /** The observer the hosting reports its legacy session table to (SDK factories have none). */
  readonly telemetry: Telemetry | undefined;
  /** The channels' HTTP routes, served beside the MCP endpoint (SDK factories have none). */
  readonly httpRoutes: readonly HttpRoute[];
}

/**
 * Takes `server` apart for HTTP hosting by `caller`: refused as {@link factoryOf} refuses it, and a
 * `McpResolveServer` warns now when its sealing keys are its own (see `warnIfStateIsLocal`).
 */
export function hostedServer(server: ServerSource, caller: string): HostedServer {
  const factory = factoryOf(server, caller);
  if (typeof server === 'function') return { factory, reuse: undefined, telemetry: undefined, httpRoutes: [] };
  server.warnIfStateIsLocal?.(caller);
  return { factory, reuse: server.instanceReuse, telemetry: server.telemetry, httpRoutes: server.httpRoutes ?? [] };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return `an object without createServer (${value.constructor.name})`;
}
