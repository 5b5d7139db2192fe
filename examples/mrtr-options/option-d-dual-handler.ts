/**
 * Option D — two handlers, one per era; `byEra` picks. The same factoring burden as C, split into
 * two functions instead of one branch.
 */
import { byEra, pushElicit } from 'mcp-resolve/mrtr';

import type { DeckServer } from './weather.js';
import {
  answeredUnits,
  askUnits,
  audit,
  deckServer,
  DEFAULT_UNITS,
  UNITS_QUESTION,
  UnitsForm,
  weather,
  WEATHER_INPUT,
} from './weather.js';

export const weatherServer: DeckServer = (options) =>
  deckServer('d', options).tool(
    'weather',
    { input: WEATHER_INPUT },
    byEra({
      modern: ({ location }, ctx) => {
        const units = answeredUnits(ctx);
        if (units === undefined) return askUnits();
        audit(location);
        return weather(location, units);
      },
      legacy: async ({ location }, ctx) => {
        const answer = await pushElicit(ctx, UNITS_QUESTION, UnitsForm);
        audit(location);
        return weather(location, answer.action === 'accept' ? answer.value.units : DEFAULT_UNITS);
      },
    }),
  );

export const createServer = weatherServer().createServer;
