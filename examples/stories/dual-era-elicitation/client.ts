/**
 * A SELF-CHECKING CLIENT (test harness, not an example to copy): it plays the person from a script
 * and checks every result against the story's table; `test/stories/` runs it. Learn the library
 * from the server files; a real client is any MCP client (the SDK's `Client`, the MCP Inspector).
 *
 * The dual-era elicitation client: books a table over stdio and HTTP on 2026-07-28 and 2025-11-25.
 * A form question is answered from the requested schema; the URL-mode question is answered the way
 * a browser would: it opens the page on loopback, submits the card form there, and only then tells
 * the server the person is done. Checks every step.
 *
 *   npx tsx examples/stories/dual-era-elicitation/client.ts     (npm run story:dual-era-elicitation)
 *
 * Ends with `dual-era-elicitation: N passed, M failed` after one line per combination.
 */
import { fileURLToPath } from 'node:url';

import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { Era } from 'mcp-resolve';

import { connectStory } from '../lib/serverProcess.js';
import type { StoryReport } from '../lib/tally.js';
import { createTally } from '../lib/tally.js';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const PROTOCOL: Record<Era, string> = { modern: '2026-07-28', legacy: '2025-11-25' };
const CAPABILITIES = { elicitation: { form: {}, url: {} } };

/** What a run proved. */
export type { StoryReport };

/** Visits `url` as a browser would: loads the page, fills its form, submits it. Returns the page's reply. */
async function visitAndPay(url: string, card: string): Promise<{ status: number; text: string; form: boolean }> {
  const page = await fetch(url);
  const html = await page.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (action === undefined) return { status: page.status, text: html, form: false };
  const submitted = await fetch(new URL(action.replaceAll('&amp;', '&'), url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card }).toString(),
  });
  return { status: submitted.status, text: await submitted.text(), form: true };
}

/** Runs the booking on one transport and era. */
export async function runDualEra(
  transport: 'stdio' | 'http',
  era: Era,
  log: (line: string) => void = (line) => console.log(line),
): Promise<StoryReport> {
  const tally = createTally(log);
  const { check } = tally;
  const seen: ElicitRequest['params'][] = [];
  let paidReply = '';
  const elicit = async (params: ElicitRequest['params']): Promise<ElicitResult> => {
    seen.push(params);
    log(`    asked (${params.mode ?? 'form'}): ${params.message}`);
    if (params.mode === 'url') {
      const { url } = params;
      log(`    browser opens ${url}`);
      const visit = await visitAndPay(url, '4242424242424242');
      paidReply = visit.text;
      log(`    page says: ${visit.text}`);
      return visit.status === 200 ? { action: 'accept' } : { action: 'cancel' };
    }
    const field = params.requestedSchema.properties.guests as { default?: number } | undefined;
    const guests = (field?.default ?? 1) + 2;
    log(`    answered: guests ${guests}`);
    return { action: 'accept', content: { guests } };
  };

  const connection = await connectStory(SERVER, 'booking-desk', transport, { era, elicit, capabilities: CAPABILITIES });
  try {
    const completed: string[] = [];
    connection.client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      log(`    notified: elicitation ${notification.params.elicitationId} complete`);
      completed.push(notification.params.elicitationId);
    });
    log(`[1] book_table Chez Loopback (${transport}, ${PROTOCOL[era]})`);
    const result = await connection.client.callTool({ name: 'book_table', arguments: { restaurant: 'Chez Loopback' } });
    const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    log(`    result: ${text}`);
    const [form, link] = seen;
    check(
      form?.mode !== 'url' &&
        form !== undefined &&
        'requestedSchema' in form &&
        JSON.stringify(form.requestedSchema.properties.guests).includes('"title":"Guests"'),
      'first a form question, with a titled field and a default',
    );
    const href = link?.mode === 'url' ? link.url : '';
    check(
      link?.mode === 'url' && new URL(href).hostname === '127.0.0.1',
      'then a URL-mode question for a loopback page',
    );
    const sentId = link !== undefined && 'elicitationId' in link ? link.elicitationId : undefined;
    check(
      era === 'legacy' ? sentId === 'Chez Loopback:4' : sentId === undefined,
      era === 'legacy'
        ? 'the URL question carries its elicitation id'
        : 'no elicitation id on 2026-07-28 (the revision dropped it)',
    );
    check(
      era === 'legacy' ? completed.join() === 'Chez Loopback:4' : completed.length === 0,
      era === 'legacy'
        ? 'the page step sent notifications/elicitation/complete for that id'
        : 'no completion notification on 2026-07-28 (the revision has none)',
    );
    check(paidReply.startsWith('Deposit paid'), 'the page took the card itself (the client never saw it)');
    check(!result.isError && text === 'booked Chez Loopback for 4, deposit paid', 'booked for 4, deposit paid');
    const legs = connection.counters.legs['tools/call'] ?? 0;
    check(
      era === 'modern'
        ? legs === 3 && connection.counters.pushes === 0
        : legs === 1 && connection.counters.pushes === 2,
      era === 'modern' ? '3 legs, no pushes' : '1 leg, 2 pushes',
    );
  } catch (error) {
    tally.fail(error);
  } finally {
    await connection.close();
  }
  return tally.report(`dual-era-elicitation ${transport} ${PROTOCOL[era]}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let passed = 0;
  let failed = 0;
  for (const transport of ['stdio', 'http'] as const) {
    for (const era of ['modern', 'legacy'] as const) {
      const report = await runDualEra(transport, era);
      passed += report.passed;
      failed += report.failed;
    }
  }
  console.log(`dual-era-elicitation: ${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}
