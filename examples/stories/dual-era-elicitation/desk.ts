/**
 * The booking desk: `book_table(restaurant)` asks the person a form question (how many guests) and
 * then a URL-mode question (pay the deposit on a page this process serves on loopback), on both
 * protocol eras. The card never passes through the MCP client: the page records the payment under
 * the elicitation id, and the tool body books only if that payment arrived.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { z } from 'zod';

import type { CompleteElicitation } from 'mcp-resolve';
import { elicit, elicitUrl, McpResolveServer, resolver, ToolError } from 'mcp-resolve';

/** The form question: titled, described, with a default so Submit works untouched. */
export const Guests = z.object({
  guests: z.int().min(1).max(12).default(2).meta({ title: 'Guests', description: 'How many people, you included.' }),
});

/** A payment page on loopback: GET shows a form, POST records the payment under its elicitation id. */
export interface PaymentPage {
  readonly url: URL;
  /** Elicitation ids whose deposit was paid. */
  readonly paid: ReadonlySet<string>;
  /**
   * Remembers how to tell the asking client that the payment under `id` is done (2025-11-25 only:
   * the library hands this over as the URL question is sent; 2026-07-28 has no such notification).
   */
  onPaid(id: string, complete: CompleteElicitation): void;
  close(): Promise<void>;
}

/** Starts the payment page on a free loopback port. */
export async function startPaymentPage(): Promise<PaymentPage> {
  const paid = new Set<string>();
  const completions = new Map<string, CompleteElicitation>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const id = url.searchParams.get('id') ?? '';
    if (request.method === 'GET' && url.pathname === '/pay') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><title>Deposit</title><form method="post" action="/pay?id=${encodeURIComponent(id)}">` +
          '<label>Card <input name="card" autocomplete="cc-number"></label><button>Pay deposit</button></form>',
      );
      return;
    }
    if (request.method === 'POST' && url.pathname === '/pay') {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        const card = new URLSearchParams(body).get('card') ?? '';
        const ok = /^\d{12,19}$/.test(card) && id !== '';
        if (ok) paid.add(id);
        // The page step is done: on 2025-11-25 the client that asked hears notifications/elicitation/complete.
        const complete = ok ? completions.get(id) : undefined;
        completions.delete(id);
        void (complete?.() ?? Promise.resolve())
          .catch((error: unknown) => console.error(`booking-desk: completion for ${id} not sent: ${String(error)}`))
          .finally(() => {
            response.writeHead(ok ? 200 : 400, { 'content-type': 'text/plain' });
            response.end(ok ? 'Deposit paid. You can go back to your assistant.' : 'That card number is not valid.');
          });
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/pay`),
    paid,
    onPaid: (id, complete) => void completions.set(id, complete),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Builds the booking desk on `page`. */
export function createBookingDesk(page: PaymentPage): McpResolveServer {
  const askGuests = resolver({ name: 'guests', args: { restaurant: z.string() } }, ({ restaurant }) =>
    elicit(`A table at ${restaurant}: for how many?`, Guests),
  );
  const deposit = resolver(
    { name: 'deposit', args: { restaurant: z.string() }, deps: { party: askGuests } },
    ({ restaurant, party }) => {
      const link = new URL(page.url);
      link.searchParams.set('id', `${restaurant}:${party.guests}`);
      const elicitationId = `${restaurant}:${party.guests}`;
      return elicitUrl(`Pay the ${party.guests * 10} EUR deposit for ${restaurant} on the payment page.`, link.href, {
        elicitationId,
        onAsked: (complete) => page.onPaid(elicitationId, complete),
      });
    },
  );
  return new McpResolveServer({ name: 'booking-desk', version: '1.0.0' }).tool(
    'book_table',
    {
      description: 'Book a table; the deposit is paid on a web page, never through the assistant.',
      input: { restaurant: z.string() },
      resolve: { party: askGuests, deposit },
    },
    ({ restaurant, party, deposit: payment }) => {
      if (!page.paid.has(payment.elicitationId)) throw new ToolError('the deposit was not paid, so nothing was booked');
      return `booked ${restaurant} for ${party.guests}, deposit paid`;
    },
  );
}
