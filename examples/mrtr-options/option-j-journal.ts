/**
 * Option J — linear code replayed from a sealed journal. Each round runs the handler from the top;
 * `ctx.step` returns its recorded result without running again, `ctx.elicit` returns the recorded
 * answer or ends the round. The server keeps nothing between rounds: any instance can serve any
 * round. Legacy clients: full elicitation (the handler runs once, the question is a push).
 */
import { journaled } from 'mcp-resolve/mrtr';

import type { DeckServer } from './weather.js';
import { audit, deckServer, DEFAULT_UNITS, UNITS_QUESTION, UnitsForm, weather, WEATHER_INPUT } from './weather.js';

export const weatherServer: DeckServer = (options) =>
  deckServer('j', options).tool(
    'weather',
    { input: WEATHER_INPUT },
    journaled(async ({ location }, ctx) => {
      await ctx.step('audit', () => audit(location)); // above the question, yet once per call
      const answer = await ctx.elicit(UNITS_QUESTION, UnitsForm);
      return weather(location, answer.action === 'accept' ? answer.value.units : DEFAULT_UNITS);
    }),
  );

export const createServer = weatherServer().createServer;
