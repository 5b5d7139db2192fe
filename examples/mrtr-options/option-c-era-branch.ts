/**
 * Option C — one handler, an `if` on the era. Modern: the modern-native guard. Legacy: a real
 * push on the live session. No hidden re-entry, but the dual path is the author's to write.
 */
import { pushElicit } from 'mcp-resolve/mrtr';

import type { DeckServer, Units } from './weather.js';
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
  deckServer('c', options).tool('weather', { input: WEATHER_INPUT }, async ({ location }, ctx) => {
    let units: Units;
    if (ctx.era === 'legacy') {
      const answer = await pushElicit(ctx, UNITS_QUESTION, UnitsForm); // a push, answered mid-call
      units = answer.action === 'accept' ? answer.value.units : DEFAULT_UNITS;
    } else {
      const answered = answeredUnits(ctx);
      if (answered === undefined) return askUnits();
      units = answered;
    }
    audit(location);
    return weather(location, units);
  });

export const createServer = weatherServer().createServer;
