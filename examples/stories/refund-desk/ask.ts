/**
 * `client.ts --ask`: a person at the terminal plays the desk's customer-service agent. They type an
 * order id and a reason; every question the desk asks is shown as a form they answer at the
 * terminal (`answerInTerminal` from mcp-resolve/client), on either era and transport, against either desk (the seed's
 * takes the SKU as typed text; the guided one offers a numbered list).
 */
import { fileURLToPath } from 'node:url';

import type { Era } from 'mcp-resolve';
import type { TestConnection } from 'mcp-resolve/testing';

import { answerInTerminal } from 'mcp-resolve/client';
import type { Terminal } from 'mcp-resolve/client';
import type { StoryTransport } from '../lib/serverProcess.js';
import { connectStory } from '../lib/serverProcess.js';
import type { DeskVariant } from './variants.js';
import { SERVER_ARGS } from './variants.js';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

/** How an interactive session is set up. */
export interface AskRun {
  readonly transport: StoryTransport;
  readonly era: Era;
  readonly variant: DeskVariant;
  /** An already running server (HTTP only); otherwise the session starts its own. */
  readonly url?: URL;
  readonly terminal: Terminal;
}

/** Runs refunds until the person leaves an empty order id (or input ends). */
export async function runAskMode(run: AskRun): Promise<void> {
  const { terminal } = run;
  const elicit = (params: Parameters<typeof answerInTerminal>[0]) => answerInTerminal(params, terminal);
  let connection: TestConnection | undefined;
  try {
    connection = await connectStory(SERVER, 'refund-desk', run.transport, {
      era: run.era,
      elicit,
      url: run.url,
      serverArgs: SERVER_ARGS[run.variant],
    });
    const era = run.era === 'modern' ? '2026-07-28' : '2025-11-25';
    const desk = run.variant === 'guided' ? 'guided refund desk' : 'refund desk';
    terminal.say(`${desk} over ${run.transport}, ${era}. Orders: ORD-7001 (one item), ORD-7002 (three items).`);
    for (;;) {
      const order_id = await terminal.ask('\nOrder id (empty to quit) > ');
      if (order_id === undefined || order_id === '') break;
      const reason = (await terminal.ask('Reason > ')) ?? '';
      const result = await connection.client.callTool({ name: 'refund_order', arguments: { order_id, reason } });
      const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
      terminal.say(result.isError ? `error: ${text}` : `refunded: ${JSON.stringify(result.structuredContent)}`);
    }
    terminal.say('bye');
  } finally {
    await connection?.close();
    terminal.close();
  }
}
