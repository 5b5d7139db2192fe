/**
 * The 2025-11-25 asking fixtures: `tools-call-sampling`, `tools-call-elicitation`,
 * `elicitation-sep1034-defaults` and `elicitation-sep1330-enums`.
 *
 * They are resolvers like every other question. On a legacy session the library sends each one as
 * a real `sampling/createMessage` / `elicitation/create` request on the call's response stream and
 * waits for the answer; the same tools on 2026-07-28 ask through `input_required` instead.
 * The elicitation fixtures consume `outcome(...)`, so the body sees the action (accept, decline,
 * cancel) rather than aborting on a decline.
 */
import type { JsonSchemaType } from '@modelcontextprotocol/server';
import { fromJsonSchema } from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { ElicitationResult, McpResolveServer } from 'mcp-resolve';
import { elicit, outcome, resolver, sample } from 'mcp-resolve';

import { sampledText } from './mrtr.js';

/** `Elicitation completed: action=…, content=…` / `User response: …` — the shape the suite prints. */
function report(result: ElicitationResult<unknown>): string {
  return `action=${result.action}, content=${JSON.stringify(result.action === 'accept' ? result.value : {})}`;
}

/** Reads the tool argument `prompt` and sends it to the client's model verbatim. */
const completion = resolver({ name: 'completion', args: { prompt: z.string() } }, ({ prompt }) =>
  sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 }),
);

const Contact = z.object({
  username: z.string().describe("User's response"),
  email: z.string().describe("User's email address"),
});

/** Reads the tool argument `message` and asks it, with a two-field form. */
const contact = resolver({ name: 'contact', args: { message: z.string() } }, ({ message }) => elicit(message, Contact));

/** SEP-1034: every primitive kind with a default the client can pre-fill. */
const Defaults = z.object({
  name: z.string().default('John Doe'),
  age: z.int().default(30),
  score: z.number().default(95.5),
  status: z.enum(['active', 'inactive', 'pending']).default('active'),
  verified: z.boolean().default(true),
});

const profile = resolver({ name: 'profile' }, () =>
  elicit('Please review your profile (defaults pre-filled).', Defaults),
);

/**
 * SEP-1330: the five enum shapes. Titled single- and multi-select (`oneOf` / `items.anyOf` of
 * `{ const, title }`) have no zod spelling the SDK's converter renders, so this form is written
 * as the JSON Schema itself and validated by the SDK's `fromJsonSchema`.
 */
/** The pre-SEP-1330 spelling of a titled enum; `enumNames` is not in the SDK's JSON Schema type, hence its own constant. */
const LEGACY_TITLED_ENUM = {
  type: 'string',
  enum: ['opt1', 'opt2', 'opt3'],
  enumNames: ['Option One', 'Option Two', 'Option Three'],
} as const;

const ENUM_FORM = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: LEGACY_TITLED_ENUM,
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
} satisfies JsonSchemaType;

interface EnumChoices {
  untitledSingle?: string;
  titledSingle?: string;
  legacyEnum?: string;
  untitledMulti?: string[];
  titledMulti?: string[];
}

const choices = resolver({ name: 'choices' }, () =>
  elicit('Pick from each kind of enum.', fromJsonSchema<EnumChoices>(ENUM_FORM)),
);

/** Registers the 2025-11-25 sampling and elicitation fixtures. */
export function registerPushFixtures(server: McpResolveServer): McpResolveServer {
  return server
    .tool(
      'test_sampling',
      {
        description: "Sends the prompt to the client's model and returns its reply.",
        input: { prompt: z.string().describe('The prompt to send') },
        resolve: { reply: completion },
      },
      ({ reply }) => `LLM response: ${sampledText(reply)}`,
    )
    .tool(
      'test_elicitation',
      {
        description: 'Asks the user the given message with a username/email form.',
        input: { message: z.string().describe('The message to show the user') },
        resolve: { answer: outcome(contact) },
      },
      ({ answer }) => `User response: ${report(answer)}`,
    )
    .tool(
      'test_elicitation_sep1034_defaults',
      {
        description: 'Asks a form whose fields all carry default values (SEP-1034).',
        resolve: { answer: outcome(profile) },
      },
      ({ answer }) => `Elicitation completed: ${report(answer)}`,
    )
    .tool(
      'test_elicitation_sep1330_enums',
      {
        description: 'Asks a form with every enum shape: untitled, titled, legacy enumNames, multi-select (SEP-1330).',
        resolve: { answer: outcome(choices) },
      },
      ({ answer }) => `Elicitation completed: ${report(answer)}`,
    );
}
