/**
 * Option G — named steps and an end step. The `units` step returns data or `input_required`; its
 * data is recorded in sealed state. The end step receives everything and runs exactly once, so the
 * side effect there cannot repeat: there is no "above the guard". Legacy clients: as E.
 */
import { steps } from 'mcp-resolve/mrtr';

import type { DeckServer } from './weather.js';
import { answeredUnits, askUnits, audit, deckServer, DEFAULT_UNITS, weather, WEATHER_INPUT } from './weather.js';

export const weatherServer: DeckServer = (options) =>
  deckServer('g', options).tool(
    'weather',
    { input: WEATHER_INPUT },
    steps((step) =>
      step
        .ask('units', (_args, ctx) => answeredUnits(ctx) ?? (ctx.era === 'legacy' ? DEFAULT_UNITS : askUnits()))
        .end(({ location }, _ctx, { units }) => {
          audit(location); // structurally unreachable until every step is done
          return weather(location, units);
        }),
    ),
  );

export const createServer = weatherServer().createServer;
