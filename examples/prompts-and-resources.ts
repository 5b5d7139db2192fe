/**
 * Prompts and resources. A prompt takes resolvers like a tool (hidden parameters, questions on
 * both eras); a resource serves a fixed URI or a URI template, and its reads are covered by the
 * same sealing as a tool's rounds.
 *
 *   npx tsx examples/prompts-and-resources.ts    # serves over stdio
 */
import { ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { McpResolveServer, resolver, ToolError } from 'mcp-resolve';
import { serveStdio } from 'mcp-resolve/node';

const TICKETS = new Map([['42', { id: '42', title: 'Printer on fire', status: 'open' }]]);

// The prompt's `ticket` argument reaches this resolver by name, as a tool's would.
const loadTicket = resolver({ name: 'ticket', args: { ticket_id: z.string() } }, ({ ticket_id }) => {
  const ticket = TICKETS.get(ticket_id);
  if (!ticket) throw new ToolError(`no ticket ${ticket_id}`);
  return ticket;
});

const server = new McpResolveServer({ name: 'helpdesk', version: '1.0.0' })
  // prompts/get: `ticket_id` is the only argument listed; `ticket` is filled by the resolver.
  .prompt(
    'triage',
    { args: { ticket_id: z.string().describe('The ticket number') }, resolve: { ticket: loadTicket } },
    ({ ticket }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Triage #${ticket.id}: ${ticket.title}` } }],
    }),
  )
  // resources/read at a fixed URI ...
  .resource('open-tickets', 'tickets://open', { mimeType: 'application/json' }, (uri) => ({
    contents: [{ uri: uri.href, text: JSON.stringify([...TICKETS.keys()]) }],
  }))
  // ... and at a URI template: `{id}` arrives in `variables`.
  .resource(
    'ticket',
    new ResourceTemplate('tickets://{id}', { list: undefined }),
    { mimeType: 'text/plain' },
    (uri, { id }) => {
      const ticket = TICKETS.get(String(id));
      if (!ticket) throw new ToolError(`no ticket ${String(id)}`);
      return { contents: [{ uri: uri.href, text: `#${ticket.id} ${ticket.title} (${ticket.status})` }] };
    },
  );

serveStdio(server);
