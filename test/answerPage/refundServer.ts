/** A one-question refund server with answer pages, and a person who answers a page over plain HTTP, for the page channel tests. */
import { elicit, resolver } from 'mcp-resolve';
import { expect } from 'vitest';
import { z } from 'zod';

import type { AnswerPageOptions } from '../../src/answerPage/options.js';
import { McpResolveServer } from '../../src/server/server.js';

/** The question the `refund` tool asks. */
export const REFUND = 'Refund ORD-1?';

/** A server whose `refund` tool asks {@link REFUND} (an amount) and answers `refunded {"amount":N}`. */
export function refundServer(answerPage: AnswerPageOptions | undefined): McpResolveServer {
  const confirm = resolver({ name: 'confirm', args: { order_id: z.string() } }, () =>
    elicit(REFUND, z.object({ amount: z.number().meta({ title: 'Amount' }) })),
  );
  return new McpResolveServer(
    { name: 'refunds', version: '1.0.0' },
    answerPage === undefined ? {} : { answerPage },
  ).tool(
    'refund',
    { input: { order_id: z.string() }, resolve: { confirm } },
    ({ confirm: answer }) => `refunded ${JSON.stringify(answer)}`,
  );
}

/** The person answers the page at `url` with `amount`, over plain HTTP (shows it, then posts its form). */
export async function answerPageOverHttp(url: string, amount: number): Promise<void> {
  const shown = await fetch(url);
  expect(shown.status).toBe(200);
  const token = /name="form-token" value="([^"]*)"/.exec(await shown.text())![1]!;
  const cookie = shown.headers.get('set-cookie')!.split(';')[0]!;
  const body = new URLSearchParams({ 'form-token': token, 'field.amount': String(amount), action: 'accept' });
  const posted = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: new URL(url).origin },
    body,
  });
  expect(posted.status).toBe(200);
}

/** The link in a tool result that hands the person a page. */
export function linkIn(result: { readonly content?: unknown }): string {
  const url = /open it: (\S+)/.exec(JSON.stringify(result.content))?.[1]?.replace(/\\n.*$/, '');
  if (url === undefined) throw new Error(`no link in ${JSON.stringify(result.content)}`);
  return url;
}
