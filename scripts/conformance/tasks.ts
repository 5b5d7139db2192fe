/**
 * The Tasks extension fixtures (SEP-2663, the `tasks-*` scenarios on 2026-07-28).
 *
 * Each is an ordinary library tool declared with `task`; nothing here builds a task, a task id
 * or an `inputRequests` map by hand. The library creates the task, parks it on the resolvers'
 * questions under keys it mints, records the answers `tasks/update` brings, and runs the body
 * once. What each fixture exercises:
 *
 * - `greet`: a tool without `task` stays synchronous, even when the client sends the legacy `task` hint;
 * - `slow_compute`: `task: 'optional'`, a body that waits and honours the task's abort signal
 *   (`tasks/cancel`); without the extension on the request it runs as an ordinary call;
 * - `failing_job`: `task: 'required'`: a tool error ends the task `completed` with `isError`,
 *   and a request without the extension gets `-32021`;
 * - `protocol_error_job`: a protocol error ends the task `failed` with the JSON-RPC error inlined;
 * - `confirm_delete`: one resolver question parks the task in `input_required`;
 * - `multi_input`: two independent questions parked together, answerable one at a time;
 * - `test_tool_with_task`: `questions: 'before-task'`: the question is a multi-round
 *   `input_required` round of `tools/call`, and the task is created on the round that answers it.
 */
import { setTimeout as delay } from 'node:timers/promises';

import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { McpResolveServer } from 'mcp-resolve';
import { elicit, resolver } from 'mcp-resolve';

const Confirm = z.object({ confirm: z.boolean() });
const Name = z.object({ name: z.string() });

const deletion = resolver({ name: 'confirm_delete', args: { filename: z.string() } }, ({ filename }) =>
  elicit(`Delete ${filename}?`, Confirm),
);

const firstName = resolver({ name: 'first_name' }, () => elicit('Who is the first person?', Name));
const secondName = resolver({ name: 'second_name' }, () => elicit('Who is the second person?', Name));

const userName = resolver({ name: 'user_name' }, () => elicit('What is your name?', Name));

/** Registers the Tasks extension fixtures on `server`. */
export function registerTaskFixtures(server: McpResolveServer): McpResolveServer {
  return server
    .tool(
      'greet',
      { description: 'Greets someone, synchronously.', input: { name: z.string() } },
      ({ name }) => `Hello, ${name}!`,
    )
    .tool(
      'slow_compute',
      {
        description: 'Waits `seconds` seconds, then reports; runs as a task when the client allows one.',
        input: { seconds: z.number().min(0), label: z.string().optional() },
        task: 'optional',
      },
      async ({ seconds, label }, ctx) => {
        await delay(seconds * 1000, undefined, { signal: ctx.mcpReq.signal });
        return `Computed ${label ?? 'result'} after ${seconds} s.`;
      },
    )
    .tool(
      'failing_job',
      { description: 'Always ends with a tool error; runs only as a task.', task: 'required' },
      async (_params, ctx) => {
        await delay(1000, undefined, { signal: ctx.mcpReq.signal });
        return { content: [{ type: 'text', text: 'The job failed: nothing to process.' }], isError: true };
      },
    )
    .tool(
      'protocol_error_job',
      {
        description: 'Ends with a protocol (JSON-RPC) error; runs as a task when the client allows one.',
        task: 'optional',
      },
      () => {
        throw new ProtocolError(ProtocolErrorCode.InternalError, 'The job crashed before producing a result.');
      },
    )
    .tool(
      'confirm_delete',
      {
        description: 'Asks for confirmation inside the task, then deletes (or keeps) the file.',
        input: { filename: z.string() },
        resolve: { answer: deletion },
        task: 'optional',
      },
      ({ filename, answer }) => (answer.confirm ? `Deleted ${filename}.` : `Kept ${filename}.`),
    )
    .tool(
      'multi_input',
      {
        description: 'Asks two independent questions inside the task, then greets both people.',
        resolve: { first: firstName, second: secondName },
        task: 'optional',
      },
      ({ first, second }) => `Hello, ${first.name} and ${second.name}!`,
    )
    .tool(
      'test_tool_with_task',
      {
        description: 'Asks for a name in a multi-round request, then continues as a task.',
        resolve: { user: userName },
        task: { support: 'required', questions: 'before-task' },
      },
      ({ user }) => `Hello, ${user.name}!`,
    );
}
