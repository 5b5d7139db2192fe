/**
 * The multi-round-trip fixtures (SEP-2322, the `input-required-result-*` scenarios on 2026-07-28).
 *
 * None of these tools builds an `input_required` result or a `requestState` by hand: each asks
 * through a resolver, and the library turns the questions into `inputRequests`, seals the
 * progress into `requestState`, verifies it on the retry and hands the answers back. What each
 * fixture exercises:
 *
 * - one question of each kind (`elicit`, `sample`, `listRoots`), keyed by the resolver's `name`;
 * - batching: three independent questions asked in one round;
 * - dependent rounds: a question built from an earlier answer is asked in the next round, with
 *   the first answer carried in the sealed state;
 * - sealed state: a tampered `requestState` is refused with the frozen `-32602` error;
 * - capability-dependent questions: a resolver reads `ctx.clientCapabilities` and asks only what
 *   the client declared it can answer;
 * - a prompt that asks, exactly like a tool.
 */
import type { Root } from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { McpResolveServer, SampleResult } from 'mcp-resolve';
import { elicit, listRoots, resolver, sample } from 'mcp-resolve';

/** The text a sampling result carries (the suite's client answers with one text block). */
export function sampledText(result: SampleResult): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
}

function describeRoots(roots: readonly Root[]): string {
  return roots.length === 0 ? 'no roots' : roots.map((root) => root.name ?? root.uri).join(', ');
}

const Name = z.object({ name: z.string() });
const Confirmation = z.object({ ok: z.boolean() });
const Color = z.object({ color: z.string() });
const Context = z.object({ context: z.string() });

// ---------------------------------------------------------------------------------------------
// Questions. A resolver's `name` is its question's key in `inputRequests` / `inputResponses`.
// ---------------------------------------------------------------------------------------------

/** The suite answers this one blind under the key `user_name`, so the name is part of the contract. */
const userName = resolver({ name: 'user_name' }, () => elicit('What is your name?', Name));

const capitalQuestion = resolver({ name: 'capital_question' }, () =>
  sample({
    messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
    maxTokens: 100,
  }),
);

const clientRoots = resolver({ name: 'client_roots' }, () => listRoots());

const confirm = resolver({ name: 'confirm' }, () => elicit('Please confirm', Confirmation));

const greeting = resolver({ name: 'greeting' }, () =>
  sample({
    messages: [{ role: 'user', content: { type: 'text', text: 'Write a one-line greeting.' } }],
    maxTokens: 50,
  }),
);

/** Depends on an answer: it can only be asked once `user_name` is answered, so in a later round. */
const favoriteColor = resolver({ name: 'favorite_color', deps: { user: userName } }, ({ user }) =>
  elicit(`Thanks, ${user.name}. What is your favorite color?`, Color),
);

/** Asks the client's model only when the client declared sampling; otherwise there is nothing to ask. */
const modelOpinion = resolver({ name: 'model_opinion' }, (_input, ctx) =>
  ctx.clientCapabilities?.sampling === undefined
    ? null
    : sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'Name one primary color.' } }],
        maxTokens: 20,
      }),
);

/** Asks the human only when the client declared elicitation; otherwise there is nothing to ask. */
const humanOpinion = resolver({ name: 'human_opinion' }, (_input, ctx) =>
  ctx.clientCapabilities?.elicitation === undefined ? null : elicit('Name one primary color.', Color),
);

const userContext = resolver({ name: 'user_context' }, () =>
  elicit('What context should the prompt be written for?', Context),
);

/** Registers the `test_input_required_result_*` tools and prompt. */
export function registerMrtrFixtures(server: McpResolveServer): McpResolveServer {
  return server
    .tool(
      'test_input_required_result_elicitation',
      {
        description: 'Asks the user for their name (one elicitation), then greets them.',
        resolve: { user: userName },
      },
      ({ user }) => `Hello, ${user.name}!`,
    )
    .tool(
      'test_input_required_result_sampling',
      {
        description: "Asks the client's model a question (one sampling request), then reports its answer.",
        resolve: { reply: capitalQuestion },
      },
      ({ reply }) => `The model answered: ${sampledText(reply)}`,
    )
    .tool(
      'test_input_required_result_list_roots',
      {
        description: 'Asks the client for its roots (one roots/list request), then lists them.',
        resolve: { roots: clientRoots },
      },
      ({ roots }) => `The client has ${roots.length} root(s): ${describeRoots(roots)}`,
    )
    .tool(
      'test_input_required_result_request_state',
      {
        description: 'Asks for a confirmation; the answer is only accepted with the sealed requestState echoed.',
        resolve: { confirmation: confirm },
      },
      ({ confirmation }) => `state-ok: the sealed requestState was verified; confirmed=${confirmation.ok}`,
    )
    .tool(
      'test_input_required_result_tampered_state',
      {
        description: 'Asks for a confirmation; a retry carrying an altered requestState is refused.',
        resolve: { confirmation: confirm },
      },
      ({ confirmation }) => `confirmed=${confirmation.ok}`,
    )
    .tool(
      'test_input_required_result_multiple_inputs',
      {
        description: 'Asks three independent questions (elicitation, sampling, roots) in one round.',
        resolve: { user: userName, greeting, roots: clientRoots },
      },
      ({ user, greeting, roots }) =>
        `Hello, ${user.name}! The model says: ${sampledText(greeting)} Roots: ${describeRoots(roots)}`,
    )
    .tool(
      'test_input_required_result_multi_round',
      {
        description: 'Asks for a name, then (in a second round) a question built from that name.',
        resolve: { user: userName, color: favoriteColor },
      },
      ({ user, color }) => `${user.name} likes ${color.color}.`,
    )
    .tool(
      'test_input_required_result_capabilities',
      {
        description: 'Asks only the questions the client declared it can answer (sampling, elicitation).',
        resolve: { model: modelOpinion, human: humanOpinion },
      },
      ({ model, human }) =>
        [
          model === null ? 'no sampling (not declared)' : `model: ${sampledText(model)}`,
          human === null ? 'no elicitation (not declared)' : `human: ${human.color}`,
        ].join('; '),
    )
    .prompt(
      'test_input_required_result_prompt',
      {
        description: 'A prompt that asks the user for context before it is rendered.',
        resolve: { context: userContext },
      },
      ({ context }) => ({
        messages: [
          { role: 'user', content: { type: 'text', text: `Write with this context in mind: ${context.context}` } },
        ],
      }),
    );
}
