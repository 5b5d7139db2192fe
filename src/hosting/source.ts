/** What the hosting functions serve: a `McpResolveServer` (anything with `createServer`) or an SDK server factory. */
import type { McpServerFactory } from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import type { FormPages } from '../questions/pages.js';
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
    };

/**
 * The key of the internal method a `McpResolveServer` receives its host's answer pages by (the
 * `answerPage` option): `server[ANSWER_PAGES](pages)`. A symbol, so the public source type stays as is.
 */
export const ANSWER_PAGES = Symbol.for('mcp-resolve.answer-pages');

/** A source that takes answer pages. */
interface AnswerPagesReceiver {
  [ANSWER_PAGES](pages: FormPages): void;
}

function receiverOf(source: ServerSource): AnswerPagesReceiver | undefined {
  return typeof source === 'object' && typeof (source as Partial<AnswerPagesReceiver>)[ANSWER_PAGES] === 'function'
    ? (source as unknown as AnswerPagesReceiver)
    : undefined;
}

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

/** Hands a `McpResolveServer` source the host's answer pages (SDK factories ask no questions of their own). */
export function announceAnswerPages(source: ServerSource, pages: FormPages): void {
  receiverOf(source)?.[ANSWER_PAGES](pages);
}

/** The answer-page hook of a `McpResolveServer` source, bound to it (for a host that serves its factory). */
export function answerPagesHookOf(source: ServerSource): ((pages: FormPages) => void) | undefined {
  const receiver = receiverOf(source);
  return receiver === undefined ? undefined : (pages) => receiver[ANSWER_PAGES](pages);
}

/** The observer of a `McpResolveServer` source (SDK factories have none). */
export function telemetryOf(source: ServerSource): Telemetry | undefined {
  return typeof source === 'object' ? source.telemetry : undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return `an object without createServer (${value.constructor.name})`;
}
