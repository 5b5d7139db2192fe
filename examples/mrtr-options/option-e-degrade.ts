/**
 * Option E — degrade. The author writes modern-native code and nothing else: answer from this
 * round's `inputResponses`, or return `input_required`. A legacy (2025-11-25) client is not asked;
 * it gets the default (metric). Works on every infrastructure, stateless or not: the SDK default.
 */
import type { DeckServer } from './weather.js';
import { answeredUnits, askUnits, audit, deckServer, DEFAULT_UNITS, weather, WEATHER_INPUT } from './weather.js';

export const weatherServer: DeckServer = (options) =>
  deckServer('e', options).tool('weather', { input: WEATHER_INPUT }, ({ location }, ctx) => {
    const units = answeredUnits(ctx) ?? (ctx.era === 'legacy' ? DEFAULT_UNITS : undefined);
    if (units === undefined) return askUnits(); // the guard: everything above it runs on every round
    audit(location); // below the guard: runs once
    return weather(location, units);
  });

/** The same handler with the side effect above the guard: the footgun. It runs again on the retry. */
export const naiveWeatherServer: DeckServer = (options) =>
  deckServer('e-naive', options).tool('weather', { input: WEATHER_INPUT }, ({ location }, ctx) => {
    audit(location); // ✗ above the guard: round 1 runs it, the retry runs it again
    const units = answeredUnits(ctx) ?? (ctx.era === 'legacy' ? DEFAULT_UNITS : undefined);
    if (units === undefined) return askUnits();
    return weather(location, units);
  });

export const createServer = weatherServer().createServer;
