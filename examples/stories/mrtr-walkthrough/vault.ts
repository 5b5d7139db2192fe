/**
 * The vault: a server written directly against the SDK (no resolvers) whose one tool,
 * `transfer(amount_cents)`, runs a hand-built multi-round loop. Round 1 asks which account to pay
 * from; round 2 asks the human to confirm, naming that account; round 3 moves the money. Between
 * rounds the chosen account lives only in `requestState`, sealed by the library's
 * `sealRequestState` (AES-256-GCM, bound to the method, audience, principal and time, single-use).
 */
import type { SdkRequestStateSealing } from 'mcp-resolve/mrtr';
import type { ErrorHook } from 'mcp-resolve';
import { sealRequestState } from 'mcp-resolve/mrtr';
import { acceptedContent, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** The accounts a transfer may come from. */
export const ACCOUNTS = ['checking', 'savings'] as const;

const AccountForm = z.object({
  account: z.enum(ACCOUNTS).meta({ title: 'Account', description: 'The account the money leaves.' }),
});
const ConfirmForm = z.object({
  confirm: z.boolean().default(false).meta({ title: 'Confirm', description: 'Tick to move the money.' }),
});

/** What round 1 learnt, carried to round 2 only inside the sealed `requestState`. */
const Progress = z.object({ account: z.enum(ACCOUNTS) });

/** How a vault instance seals: its key (hex, 32 bytes) and where rejection reasons are logged. */
export interface VaultOptions {
  readonly key: string;
  readonly onerror: ErrorHook;
}

/** Builds one vault server instance; every instance sharing `key` can serve any round. */
export function createVault(options: VaultOptions): McpServer {
  const sealing: SdkRequestStateSealing = sealRequestState('vault', { keys: [options.key], onerror: options.onerror });
  // The one line that makes the SDK verify (and decrypt) every inbound requestState with our key.
  const server = new McpServer({ name: 'vault', version: '1.0.0' }, { requestState: sealing });
  server.registerTool(
    'transfer',
    { description: 'Move money out of an account the human picks.', inputSchema: { amount_cents: z.number().int() } },
    async ({ amount_cents }, ctx) => {
      const responses = ctx.mcpReq.inputResponses;
      // Verified and opened by the hook before the handler runs; undefined on the first round.
      const sealed = ctx.mcpReq.requestState();
      const progress = sealed === undefined ? undefined : Progress.parse(sealed);

      const account = progress?.account ?? acceptedContent(responses, 'account', AccountForm)?.account;
      if (account === undefined) {
        return inputRequired({
          inputRequests: {
            account: inputRequired.elicit({
              message: `Transfer ${amount_cents} cents from which account?`,
              requestedSchema: AccountForm,
            }),
          },
        });
      }
      if (progress === undefined || responses?.confirm === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Move ${amount_cents} cents out of ${account}?`,
              requestedSchema: ConfirmForm,
            }),
          },
          requestState: await sealing.mint({ account } satisfies z.infer<typeof Progress>, ctx),
        });
      }
      // A decline or cancel is no confirmation: nothing moves.
      const confirmed = acceptedContent(responses, 'confirm', ConfirmForm)?.confirm === true;
      const text = confirmed ? `moved ${amount_cents} cents out of ${account}` : 'nothing moved';
      return { content: [{ type: 'text', text }] };
    },
  );
  return server;
}
