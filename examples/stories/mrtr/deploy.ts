/**
 * The mrtr story's server: `deploy(env)` asks the person to confirm by returning `input_required`
 * itself (no resolvers), and resumes from the answer and the state it wrote. The body writes its
 * `requestState` in plaintext; the library seals it on the way out and opens it on the way back,
 * so the wire only ever carries an opaque token.
 */
import { inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { McpResolveServer, ToolError } from 'mcp-resolve';
import { answerOf } from 'mcp-resolve/mrtr';

/** The confirmation form: one boolean, unticked by default (submitting untouched cancels). */
export const Confirm = z.object({
  confirm: z
    .boolean()
    .default(false)
    .meta({ title: 'Deploy', description: 'Proceed with the deployment? Leave unticked to cancel it.' }),
});

/** The plaintext the first round leaves in `requestState`; only its sealed form reaches the client. */
export const AWAITING_CONFIRM = 'awaiting-confirm';

/** Builds the deploy server (one definition; hosting makes instances per connection or request). */
export function createDeployServer(): McpResolveServer {
  return new McpResolveServer({ name: 'mrtr-example', version: '1.0.0' }).tool(
    'deploy',
    {
      description: 'Deploy to an environment, asking the user to confirm first.',
      input: { env: z.string() },
    },
    ({ env }, ctx) => {
      const answer = answerOf(ctx, 'confirm', Confirm);
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: Confirm }),
          },
          requestState: AWAITING_CONFIRM,
        });
      }
      // The state came back opened by the library: tampered, replayed or foreign state never gets here.
      if (ctx.mcpReq.requestState() !== AWAITING_CONFIRM) {
        throw new ToolError(
          'deploy: this answer did not come with the requestState of the round that asked for it; call deploy again without inputResponses to be asked again.',
        );
      }
      return answer.action === 'accept' && answer.value.confirm
        ? `deployed to ${env}`
        : `deployment to ${env} cancelled`;
    },
  );
}
