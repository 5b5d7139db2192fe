/**
 * Option H — linear code that suspends (`suspending`), frame held in memory. `await ctx.elicit()`
 * really suspends: the handler's frame waits in this instance's continuation store between rounds,
 * so the audit above it runs once. The server is stateful within a call: a round that reaches
 * another instance (or arrives after the TTL) fails with a clear "start over" error — deploy with
 * sticky routing. Legacy clients: as E (the question is unavailable; the handler takes its default).
 */
import { createContinuationStore, ElicitationDeclinedError, suspending } from 'mcp-resolve/mrtr';

import type { DeckServer, Units } from './weather.js';
import { audit, deckServer, DEFAULT_UNITS, UNITS_QUESTION, UnitsForm, weather, WEATHER_INPUT } from './weather.js';

function orDefault(error: unknown): Units {
  if (error instanceof ElicitationDeclinedError) return DEFAULT_UNITS; // declined, cancelled, or legacy
  throw error;
}

export const weatherServer: DeckServer = (options) => {
  const store = createContinuationStore({ ttlMs: 10 * 60_000 }); // one per server instance
  return deckServer('h', options).tool(
    'weather',
    { input: WEATHER_INPUT },
    suspending(
      async ({ location }, ctx) => {
        audit(location); // runs once: the retry resumes the frame, it does not re-enter it
        const units = await ctx.elicit(UNITS_QUESTION, UnitsForm).then((form) => form.units, orDefault);
        return weather(location, units);
      },
      { store },
    ),
  );
};

export const createServer = weatherServer().createServer;
