/**
 * A SELF-CHECKING CLIENT (test harness, not an example to copy): it plays the person from a script
 * and checks every result against the story's table; `test/stories/` runs it. Learn the library
 * from the server files; a real client is any MCP client (the SDK's `Client`, the MCP Inspector).
 *
 * The legacy-elicitation story's client: registers a user through a form question and links an
 * account through a URL-mode question, on 2025-11-25 (each question a push request during the one
 * `tools/call`) and, as a contrast, 2026-07-28 (the same questions as `input_required` rounds).
 *
 *   npx tsx examples/stories/legacy-elicitation/client.ts             (npm run story:legacy-elicitation)
 *   npx tsx examples/stories/legacy-elicitation/client.ts --http URL  against a server someone started (add --modern)
 *
 * Each run ends with `legacy-elicitation <stdio|http> <2025-11-25|2026-07-28>: N passed, M failed`;
 * exit code 1 when any run has a failure.
 */
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';

import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { Era } from 'mcp-resolve';

import type { StoryTransport } from '../lib/serverProcess.js';
import { connectStory } from '../lib/serverProcess.js';
import type { StoryReport } from '../lib/tally.js';
import { createTally } from '../lib/tally.js';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const PROTOCOL: Record<Era, string> = { modern: '2026-07-28', legacy: '2025-11-25' };
/** Form and URL-mode elicitation: a client that declares only forms is refused the URL question. */
const CAPABILITIES = { elicitation: { form: {}, url: {} } };

/** What a run proved. */
export type { StoryReport };

/** How one run is set up. */
export interface LegacyElicitationRun {
  readonly transport: StoryTransport;
  /** @default 'legacy' */
  readonly era?: Era;
  /** An already running server (HTTP only); otherwise the run starts its own. */
  readonly url?: URL | undefined;
  /** Where the conversation is printed. @default console.log */
  readonly log?: (line: string) => void;
}

/** Whether a requested form has exactly the fields `names`, each with a title. */
function titledFields(params: ElicitRequest['params'] | undefined, names: readonly string[]): boolean {
  if (params === undefined || params.mode === 'url' || !('requestedSchema' in params)) return false;
  const fields = params.requestedSchema.properties as Record<string, { title?: unknown }>;
  return (
    isDeepStrictEqual(Object.keys(fields).sort(), [...names].sort()) &&
    Object.values(fields).every((field) => typeof field.title === 'string')
  );
}

/** Runs every call of the story once. */
export async function runLegacyElicitation(run: LegacyElicitationRun): Promise<StoryReport> {
  const { transport, era = 'legacy', url } = run;
  const log = run.log ?? ((line: string) => console.log(line));
  const tally = createTally(log);
  const { check } = tally;
  const asked: ElicitRequest['params'][] = [];
  let declineForms = false;
  let plan = 'pro';
  const elicit = (params: ElicitRequest['params']): ElicitResult => {
    asked.push(params);
    const answer: ElicitResult =
      params.mode === 'url'
        ? { action: params.url.startsWith('https://example.com/') ? 'accept' : 'decline' }
        : declineForms
          ? { action: 'decline' }
          : { action: 'accept', content: { username: 'alice', plan } };
    log(`    asked (${params.mode ?? 'form'}): ${params.message}${params.mode === 'url' ? ` ${params.url}` : ''}`);
    log(`    answered: ${JSON.stringify(answer)}`);
    return answer;
  };
  const connection = await connectStory(SERVER, 'legacy-elicitation', transport, {
    era,
    elicit,
    url,
    capabilities: CAPABILITIES,
  });
  const completed: string[] = [];
  connection.client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
    completed.push(notification.params.elicitationId);
  });
  const [legs, pushes] = era === 'legacy' ? [1, 1] : [2, 0];
  const call = async (name: string, args: Record<string, unknown>) => {
    asked.length = 0;
    connection.counters.reset();
    const result = await connection.client.callTool({ name, arguments: args });
    const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    log(`    result: ${result.isError ? 'error: ' : ''}${text}`);
    const seen = [connection.counters.legs['tools/call'] ?? 0, connection.counters.pushes];
    check(isDeepStrictEqual(seen, [legs, pushes]), `${legs} leg(s), ${pushes} push(es) (saw ${seen[0]}, ${seen[1]})`);
    return { ok: result.isError !== true, text };
  };
  try {
    log('[0] tools/list');
    const { tools } = await connection.client.listTools();
    const inputs = Object.fromEntries(tools.map((tool) => [tool.name, Object.keys(tool.inputSchema.properties ?? {})]));
    check(
      isDeepStrictEqual(inputs, { register_user: [], link_account: ['provider'] }),
      'two tools: register_user(), link_account(provider)',
    );

    log('[1] register_user');
    const registered = await call('register_user', {});
    check(titledFields(asked[0], ['username', 'plan']), 'a form question with titled username and plan fields');
    check(registered.ok && registered.text === 'registered alice (plan: pro)', '"registered alice (plan: pro)"');

    log('[2] link_account github');
    const linked = await call('link_account', { provider: 'github' });
    const link = asked[0];
    check(
      link?.mode === 'url' && link.url === 'https://example.com/oauth/github/authorize',
      'a URL-mode question for https://example.com/oauth/github/authorize',
    );
    const id = link !== undefined && 'elicitationId' in link ? link.elicitationId : undefined;
    check(
      era === 'legacy'
        ? typeof id === 'string' && id !== '' && isDeepStrictEqual(completed, [id])
        : id === undefined && completed.length === 0,
      era === 'legacy'
        ? 'the URL question carries its elicitation id, and notifications/elicitation/complete names it after the accept'
        : 'no elicitation id and no completion notification on 2026-07-28 (the revision dropped both)',
    );
    check(linked.ok && linked.text === 'linked github', '"linked github"');

    log('[3] register_user, no plan');
    plan = '';
    const free = await call('register_user', {});
    check(free.ok && free.text === 'registered alice (plan: free)', 'an empty plan is the free plan: "(plan: free)"');

    log('[4] register_user, declined');
    declineForms = true;
    const declined = await call('register_user', {});
    check(
      declined.ok && declined.text === 'registration decline',
      'a decline is the tool\'s own branch: "registration decline"',
    );
  } catch (error) {
    tally.fail(error);
  } finally {
    await connection.close();
  }
  return tally.report(`legacy-elicitation ${transport} ${PROTOCOL[era]}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    options: { http: { type: 'boolean', default: false }, modern: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const url = positionals[0] === undefined ? undefined : new URL(positionals[0]);
  const single = url !== undefined || values.http || values.modern;
  const runs: Array<{ transport: StoryTransport; era: Era }> = single
    ? [{ transport: values.http || url !== undefined ? 'http' : 'stdio', era: values.modern ? 'modern' : 'legacy' }]
    : (['stdio', 'http'] as const).flatMap((transport) =>
        (['legacy', 'modern'] as const).map((era) => ({ transport, era })),
      );
  let failed = 0;
  for (const run of runs) failed += (await runLegacyElicitation({ ...run, url })).failed;
  process.exitCode = failed > 0 ? 1 : 0;
}
