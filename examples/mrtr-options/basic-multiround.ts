/**
 * basic-multiround — cascading required fields, resolving work item #4522:
 *   rule 1: State "Resolved" requires a Resolution;
 *   rule 2: Resolution "Duplicate" requires "Duplicate Of".
 * Two questions, each depending on the last answer: two `input_required` rounds, then the result.
 *
 *   npx tsx examples/mrtr-options/basic-multiround.ts
 *
 * Prints the conversation and exits non-zero unless it ends with `#4522 resolved as Duplicate of #4301.`
 */
import { fileURLToPath } from 'node:url';

import type { ElicitResult } from '@modelcontextprotocol/server';
import { acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { McpResolveServer } from 'mcp-resolve';

import { converse } from './conversation.js';

const ResolutionForm = z.object({ resolution: z.enum(['Fixed', 'Duplicate', "Won't Fix", 'By Design']) });
const DuplicateForm = z.object({ duplicateOf: z.number().int().min(1) });

/** What earlier rounds established; it survives only because the handler puts it in `requestState`. */
const Known = z.object({ resolution: ResolutionForm.shape.resolution.optional() });

/** The work-item server: `update_work_item` enforces both rules by asking. */
export const workItemServer = (): McpResolveServer =>
  new McpResolveServer({ name: 'work-items', version: '1.0.0' }).tool(
    'update_work_item',
    { input: { id: z.number().int(), state: z.enum(['Active', 'Resolved', 'Closed']) } },
    ({ id, state }, ctx) => {
      const responses = ctx.mcpReq.inputResponses;
      // `inputResponses` holds only the latest round's answers. What an earlier round learnt comes
      // back through `requestState` — plaintext here; the library seals it (encrypted, bound to this
      // call) on the way out and opens it on the way in. Any server instance can serve any round.
      const state0 = ctx.mcpReq.requestState();
      const known = Known.parse(typeof state0 === 'string' ? JSON.parse(state0) : {});

      // Rule 1: Resolved requires a Resolution.
      const resolution = known.resolution ?? acceptedContent(responses, 'resolution', ResolutionForm)?.resolution;
      if (state === 'Resolved' && resolution === undefined) {
        return inputRequired({
          inputRequests: {
            resolution: inputRequired.elicit({
              message: `Work item #${id}: State "Resolved" requires a Resolution.`,
              requestedSchema: ResolutionForm,
            }),
          },
        });
      }

      // Rule 2: a Duplicate requires Duplicate Of. Carry rule 1's answer into the next round.
      const duplicateOf = acceptedContent(responses, 'duplicateOf', DuplicateForm)?.duplicateOf;
      if (resolution === 'Duplicate' && duplicateOf === undefined) {
        return inputRequired({
          inputRequests: {
            duplicateOf: inputRequired.elicit({
              message: `Work item #${id}: Resolution "Duplicate" requires "Duplicate Of" (a work item id).`,
              requestedSchema: DuplicateForm,
            }),
          },
          requestState: JSON.stringify({ resolution } satisfies z.infer<typeof Known>),
        });
      }

      if (resolution === undefined) return `#${id} set to ${state}.`;
      return resolution === 'Duplicate'
        ? `#${id} resolved as Duplicate of #${String(duplicateOf)}.`
        : `#${id} resolved as ${resolution}.`;
    },
  );

/** Runs the conversation and returns whether it ended with the expected text. */
export async function main(log: (line: string) => void = (line) => console.log(line)): Promise<boolean> {
  const expected = '#4522 resolved as Duplicate of #4301.';
  const text = await converse(workItemServer(), {
    tool: 'update_work_item',
    arguments: { id: 4522, state: 'Resolved' },
    answer: (params): ElicitResult =>
      'requestedSchema' in params && 'duplicateOf' in params.requestedSchema.properties
        ? { action: 'accept', content: { duplicateOf: 4301 } }
        : { action: 'accept', content: { resolution: 'Duplicate' } },
    log,
  });
  const ok = text === expected;
  log(ok ? `ok: ${text}` : `FAIL: expected "${expected}", got "${text}"`);
  return ok;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = (await main()) ? 0 : 1;
