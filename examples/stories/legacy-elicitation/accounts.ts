/**
 * The legacy-elicitation story's server: `register_user()` asks the person a form (username and
 * plan) and `link_account(provider)` sends them to a sign-in URL (URL-mode elicitation). Written
 * once with resolvers: on 2025-11-25 each question is an `elicitation/create` push request during
 * the call, which is what this story shows; a 2026-07-28 client gets the same questions as
 * `input_required` rounds.
 */
import { z } from 'zod';

import { elicit, elicitUrl, McpResolveServer, outcome, resolver } from 'mcp-resolve';

/** The registration form: a username, and an optional plan (`free` when left out). */
export const Registration = z.object({
  username: z.string().min(1).meta({ title: 'Username', description: 'The name to sign in with.' }),
  plan: z.string().optional().meta({ title: 'Plan', description: 'Leave empty for the free plan.' }),
});

/** Where the person signs in to link `provider`. */
export const signInUrl = (provider: string): string =>
  `https://example.com/oauth/${encodeURIComponent(provider)}/authorize`;

const askRegistration = resolver({ name: 'registration' }, () =>
  elicit('Please provide your registration details:', Registration),
);

const askSignIn = resolver({ name: 'signIn', args: { provider: z.string() } }, ({ provider }, ctx) =>
  elicitUrl(
    `Sign in to ${provider} to link your account`,
    signInUrl(provider),
    // On 2025-11-25 the id is scoped to this request, as in the reference (one call, one push). On
    // 2026-07-28 the default id, derived from the question, keeps it the same in every round.
    ctx.era === 'legacy' ? { elicitationId: `link-${provider}-${String(ctx.mcpReq.id)}` } : {},
  ),
);

/** Builds the accounts server (one definition; hosting makes instances per connection or request). */
export function createAccountsServer(): McpResolveServer {
  return new McpResolveServer({ name: 'legacy-elicitation-example', version: '1.0.0' })
    .tool(
      'register_user',
      {
        description: 'Register a new account by asking the user for their details.',
        resolve: { answer: outcome(askRegistration) },
      },
      ({ answer }) => {
        if (answer.action !== 'accept') return `registration ${answer.action}`;
        // An empty plan is the free plan, as the form's hint says (and the reference's `plan or 'free'`).
        const plan = answer.value.plan?.trim() ?? '';
        return `registered ${answer.value.username} (plan: ${plan === '' ? 'free' : plan})`;
      },
    )
    .tool(
      'link_account',
      {
        description: 'Link a third-party account by directing the user to a sign-in URL.',
        input: { provider: z.string() },
        resolve: { signIn: outcome(askSignIn) },
      },
      async ({ provider, signIn }, ctx) => {
        if (signIn.action !== 'accept') return `link ${signIn.action}`;
        // The sign-in finished (nothing serves the example page, so the accept stands for it): tell
        // a 2025-11-25 client which elicitation completed, on this call's stream, as the reference
        // does. 2026-07-28 has no such notification.
        if (ctx.era === 'legacy') {
          const params = { elicitationId: signIn.value.elicitationId };
          await ctx.mcpReq.notify({ method: 'notifications/elicitation/complete', params });
        }
        return `linked ${provider}`;
      },
    );
}
