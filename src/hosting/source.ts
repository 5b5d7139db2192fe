/** What the hosting functions serve: a `McpResolveServer` (anything with `createServer`) or an SDK server factory. */
import type { McpServerFactory } from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import type { HttpRoute } from '../channels/channel.js';
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
    };

/** The factory behind a {@link ServerSource}; anything else is refused naming `caller`. */
export function factoryOf(source: ServerSource, caller: string): McpServerFactory {
  if (typeof source === 'function') return source;
  if (typeof source === 'object' && source !== null && typeof source.createServer === 'function') {
    return source.createServer;
  }
  throw new McpResolveError(
    'invalid_usage',
    `${caller} expects a McpResolveServer or an SDK server factory (() => McpServer), got ${describe(source)}.`,
    { data: { api: caller } },
  );
}

/** Lets a `McpResolveServer` warn at the start of HTTP hosting when its sealing keys are its own (SDK factories have none). */
export function announceHttpHosting(source: ServerSource, hosting: string): void {
  if (typeof source === 'object') source.warnIfStateIsLocal?.(hosting);
}

/** The observer of a `McpResolveServer` source (SDK factories have none). */
export function telemetryOf(source: ServerSource): Telemetry | undefined {
  return typeof source === 'object' ? source.telemetry : undefined;
}

/** The HTTP routes of a `McpResolveServer` source's channels (SDK factories have none). */
export function httpRoutesOf(source: ServerSource): readonly HttpRoute[] {
  return typeof source === 'object' ? (source.httpRoutes ?? []) : [];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return `an object without createServer (${value.constructor.name})`;
}
