/** What the hosting functions serve: a `McpResolveServer` (anything with `createServer`) or an SDK server factory. */
import type { McpServerFactory } from '@modelcontextprotocol/server';

/** A `McpResolveServer`, or any SDK server factory (a fresh server per connection or request). */
export type ServerSource = McpServerFactory | { readonly createServer: McpServerFactory };

/** The factory behind a {@link ServerSource}. */
export function factoryOf(source: ServerSource): McpServerFactory {
  return typeof source === 'function' ? source : source.createServer;
}
