/**
 * The diagnostic tools `server-stateless` (SEP-2575, 2026-07-28) probes the server with.
 *
 * - `test_missing_capability` asks the client's model; called with no declared capabilities it
 *   must be refused before anything runs. The library's capability gate does that: JSON-RPC
 *   error -32021 with `data.requiredCapabilities: { sampling: {} }` (HTTP 400).
 * - `test_streaming_elicitation` asks the human; on the modern era the question travels inside
 *   the `input_required` result, never as a request of its own on the response stream.
 * - `test_logging_tool` logs; without `_meta.logLevel` on the request the SDK sends nothing.
 * - `test_trigger_tool_change` / `test_trigger_prompt_change` publish list-changed notifications
 *   to every subscribed client of both eras, through the HTTP handle's `notify`.
 */
import { z } from 'zod';

import type { ServerNotifier } from '@modelcontextprotocol/server';
import type { McpResolveServer } from 'mcp-resolve';
import { elicit, resolver, sample } from 'mcp-resolve';

import { sampledText } from './mrtr.js';

const summary = resolver({ name: 'summary' }, () =>
  sample({
    messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the conformance run in one line.' } }],
    maxTokens: 50,
  }),
);

const nickname = resolver({ name: 'nickname' }, () =>
  elicit('What should we call you?', z.object({ nickname: z.string() })),
);

/** The list-changed publishers the trigger tools use; bound once the server is listening. */
export type ListChanges = Pick<ServerNotifier, 'toolsChanged' | 'promptsChanged'>;

/** Registers the `server-stateless` diagnostic tools. */
export function registerDiagnosticFixtures(server: McpResolveServer, changes: ListChanges): McpResolveServer {
  return server
    .tool(
      'test_missing_capability',
      {
        description: "Needs the client's sampling capability; refused with -32021 when it is not declared.",
        resolve: { summary },
      },
      ({ summary }) => `The model says: ${sampledText(summary)}`,
    )
    .tool(
      'test_streaming_elicitation',
      {
        description: 'Asks the user a question; on 2026-07-28 it rides the input_required result.',
        resolve: { nickname },
      },
      ({ nickname }) => `Hello, ${nickname.nickname}!`,
    )
    .tool(
      'test_logging_tool',
      { description: 'Logs one message; nothing is sent unless the request asked for a log level.' },
      async (_params, ctx) => {
        await ctx.mcpReq.log('info', 'test_logging_tool ran');
        return 'Logged one message (delivered only if the request set a log level).';
      },
    )
    .tool('test_trigger_tool_change', { description: 'Publishes notifications/tools/list_changed.' }, () => {
      changes.toolsChanged();
      return 'Published tools/list_changed.';
    })
    .tool('test_trigger_prompt_change', { description: 'Publishes notifications/prompts/list_changed.' }, () => {
      changes.promptsChanged();
      return 'Published prompts/list_changed.';
    });
}
