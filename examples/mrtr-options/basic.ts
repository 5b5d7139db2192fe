/**
 * basic — the minimal modern (2026-07-28) multi-round handler: one question, one retry.
 *
 *   npx tsx examples/mrtr-options/basic.ts
 *
 * Prints the conversation and exits non-zero if the final text is not `Weather in Tokyo: 22°C`.
 */
import { fileURLToPath } from 'node:url';

import { acceptedContent, inputRequired } from '@modelcontextprotocol/server';

import { McpResolveServer } from 'mcp-resolve';

import { converse } from './conversation.js';
import { UNITS_QUESTION, UnitsForm, weather, WEATHER_INPUT } from './weather.js';

/** The basic server: one tool that needs one answer from the human. */
export const basicServer = (): McpResolveServer =>
  new McpResolveServer({ name: 'basic', version: '1.0.0' }).tool(
    'weather',
    { input: WEATHER_INPUT },
    ({ location }, ctx) => {
      // Move 1 — look for the answer. On the retry, the client's answers arrive in this round's
      // `inputResponses`, keyed by the names this handler chose when it asked. `acceptedContent`
      // returns the content only if the human accepted and it matches the schema.
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'units', UnitsForm);

      // Move 2 — no answer yet: return `input_required` with the question, and stop. Nothing is
      // kept on the server; the client asks the human and calls the tool again — a new request,
      // on any instance — and this handler runs again from the top. So anything above this line
      // runs on every round: keep side effects below it.
      if (answer === undefined) {
        return inputRequired({
          inputRequests: { units: inputRequired.elicit({ message: UNITS_QUESTION, requestedSchema: UnitsForm }) },
        });
      }

      // The answer is here: finish as if it had always been known.
      return weather(location, answer.units);
    },
  );

/** Runs the conversation and returns whether it ended with the expected text. */
export async function main(log: (line: string) => void = (line) => console.log(line)): Promise<boolean> {
  const expected = 'Weather in Tokyo: 22°C';
  const text = await converse(basicServer(), {
    tool: 'weather',
    arguments: { location: 'Tokyo' },
    answer: () => ({ action: 'accept', content: { units: 'metric' } }),
    log,
  });
  const ok = text === expected;
  log(ok ? `ok: ${text}` : `FAIL: expected "${expected}", got "${text}"`);
  return ok;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = (await main()) ? 0 : 1;
