/**
 * Option A — the SDK's legacy shim. The same modern-native code as E; on a legacy session the
 * official SDK v2's shim (`ServerOptions.inputRequired.legacyShim`) sends the `input_required`
 * question as a real `elicitation/create` push and calls the handler again with the answer.
 * Hidden re-entry, but safe: the guard is visible in the source. Hazard: the shim needs a live
 * legacy session (stdio, or sessionful HTTP as `serveHttp` provides); a legacy client reaching
 * modern-only, per-request infrastructure fails at runtime, far from this code.
 */
import type { ServerOptions } from '@modelcontextprotocol/server';

import type { DeckServer } from './weather.js';
import { answeredUnits, askUnits, audit, deckServer, weather, WEATHER_INPUT } from './weather.js';

/**
 * The shim as every `McpResolveServer` instance runs it: the SDK's defaults, on. `McpResolveServer`
 * builds its SDK instances itself and has no option to pass these through (it cannot be tuned or
 * turned off from here); this constant names what is in effect.
 */
export const LEGACY_SHIM = { legacyShim: true, maxRounds: 8, roundTimeoutMs: 600_000 } as const satisfies NonNullable<
  ServerOptions['inputRequired']
>;

export const weatherServer: DeckServer = (options) =>
  deckServer('a', options).tool('weather', { input: WEATHER_INPUT }, ({ location }, ctx) => {
    const units = answeredUnits(ctx);
    if (units === undefined) return askUnits(); // legacy: the shim pushes this and re-enters
    audit(location);
    return weather(location, units);
  });

export const createServer = weatherServer().createServer;
