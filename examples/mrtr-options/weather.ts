/**
 * The deck's one shared domain module: the `weather` tool every option serves (given a location,
 * ask "Which units?", answer `Weather in Tokyo: 22°C` or `72°F`), the modern-native question and
 * answer helpers, and the counted `audit` side effect that shows which shapes run code twice.
 */
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import { inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { McpResolveServerOptions, ToolContext } from 'mcp-resolve';
import { McpResolveServer } from 'mcp-resolve';
import { answerOf } from 'mcp-resolve/mrtr';

/** The tool's model-facing input. */
export const WEATHER_INPUT = { location: z.string().describe('A city, e.g. Tokyo') };

/** The one question: which units to answer in. */
export const UNITS_QUESTION = 'Which units?';

/** The form the human fills in. */
export const UnitsForm = z.object({ units: z.enum(['metric', 'imperial']) });

/** A unit system. */
export type Units = z.infer<typeof UnitsForm>['units'];

/** What a client that cannot be asked (or declines) gets. */
export const DEFAULT_UNITS: Units = 'metric';

/** The lookup itself. */
export function weather(location: string, units: Units): string {
  return `Weather in ${location}: ${units === 'metric' ? '22°C' : '72°F'}`;
}

// Rendered once: the SDK converts the zod schema to the wire form here, not on every round.
const UNITS_REQUEST = inputRequired.elicit({ message: UNITS_QUESTION, requestedSchema: UnitsForm });

/** The modern-native ask: `input_required` with the units question under the key `units`. */
export function askUnits(): InputRequiredResult {
  return inputRequired({ inputRequests: { units: UNITS_REQUEST } });
}

/** The modern-native read: the accepted units, the default if declined, `undefined` if this round carries no answer. */
export function answeredUnits(ctx: ToolContext): Units | undefined {
  const answer = answerOf(ctx, 'units', UnitsForm);
  if (answer === undefined) return undefined;
  return answer.action === 'accept' ? answer.value.units : DEFAULT_UNITS;
}

let audits = 0;

/** The side effect (think: an audit-log INSERT). Counted per process, so double execution shows. */
export function audit(location: string): void {
  audits += 1;
  if (process.env.WEATHER_DECK_VERBOSE === '1') console.error(`audit: weather lookup for ${location}`);
}

/** How many times this process ran `audit`. */
export function auditCount(): number {
  return audits;
}

/** How every option file exposes its server: a fresh `McpResolveServer` per call (tests build fleets of them). */
export type DeckServer = (options?: McpResolveServerOptions) => McpResolveServer;

/** A server named for `option`, with the `audit_count` tool clients read the side-effect counter through. */
export function deckServer(option: string, options?: McpResolveServerOptions): McpResolveServer {
  return new McpResolveServer({ name: 'weather-deck', version: '1.0.0' }, options).tool(
    'audit_count',
    { description: `How many times this process ran the audit side effect (option ${option}).` },
    () => String(audits),
  );
}
