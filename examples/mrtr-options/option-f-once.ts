/**
 * Option F — modern-native plus `once`. The audit stays above the guard, but wrapped: its key is
 * recorded in the sealed state the body returns, so the retry skips it. Opt-in per call site (an
 * unwrapped effect still runs twice) and not crash-safe. Legacy clients: as E.
 */
import { once, withOnce } from 'mcp-resolve/mrtr';

import type { DeckServer } from './weather.js';
import { answeredUnits, askUnits, audit, deckServer, DEFAULT_UNITS, weather, WEATHER_INPUT } from './weather.js';

export const weatherServer: DeckServer = (options) =>
  deckServer('f', options).tool(
    'weather',
    { input: WEATHER_INPUT },
    withOnce(async ({ location }, ctx) => {
      await once(ctx, 'audit', () => audit(location)); // above the guard, yet at most once per call
      const units = answeredUnits(ctx) ?? (ctx.era === 'legacy' ? DEFAULT_UNITS : undefined);
      if (units === undefined) return askUnits();
      return weather(location, units);
    }),
  );

export const createServer = weatherServer().createServer;
