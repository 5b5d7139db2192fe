/**
 * `client.ts --ask`: a person at the terminal plays the desk's customer-service agent. They type an
 * order id and a reason; every question the desk asks is shown as a form they answer at the
 * terminal (see ../terminal/form.ts), on either era and transport.
 */
import { fileURLToPath } from 'node:url';

import type { Era, TestConnection } from 'mcp-resolve/testing';
import { connectHttp, connectStdio } from 'mcp-resolve/testing';

import { answerInTerminal } from '../terminal/form.js';
import type { Terminal } from '../terminal/form.js';
import { startHttpServer } from '../lib/serverProcess.js';
import type { StoryTransport } from './client.js';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

/** How an interactive session is set up. */
export interface AskRun {
  readonly transport: StoryTransport;
  readonly era: Era;
  /** An already running server (HTTP only); otherwise the session starts its own. */
  readonly url?: URL;
  readonly terminal: Terminal;
}

/** Runs refunds until the person leaves an empty order id (or input ends). */
export async function runAskMode(run: AskRun): Promise<void> {
  const { terminal } = run;
  const elicit = (params: Parameters<typeof answerInTerminal>[0]) => answerInTerminal(params, terminal);
  const server =
    run.transport === 'http' && run.url === undefined ? await startHttpServer(SERVER, 'refund-desk') : undefined;
  let connection: TestConnection | undefined;
  try {
    connection =
      run.transport === 'stdio'
        ? await connectStdio(process.execPath, ['--import', 'tsx', SERVER], { era: run.era, elicit })
        : await connectHttp(run.url ?? server!.url, { era: run.era, elicit });
    const era = run.era === 'modern' ? '2026-07-28' : '2025-11-25';
    terminal.say(`refund desk over ${run.transport}, ${era}. Orders: ORD-7001 (one item), ORD-7002 (three items).`);
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
    await server?.stop();
    terminal.close();
  }
}
