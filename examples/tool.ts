/**
 * A tool with resolvers and one question. `book_room(room)` books a hotel room: a resolver loads
 * the room (the model only names it), another asks the person how many nights, and the body gets
 * both, typed. The price is computed here, never taken from the model.
 *
 *   npx tsx examples/tool.ts    # serves over stdio (both protocol eras); examples/testing.ts drives it
 */
import { fileURLToPath } from 'node:url';

import { z } from 'zod';

import type { McpResolveServerOptions } from 'mcp-resolve';
import { elicit, McpResolveServer, resolver, ToolError } from 'mcp-resolve';
import { serveStdio } from 'mcp-resolve/node';

const ROOMS = new Map([['garden', { name: 'garden', cents_per_night: 120_00 }]]);

// A resolver reads tool arguments by name; what it returns becomes a typed parameter of the body.
const loadRoom = resolver({ name: 'room', args: { room: z.string() } }, ({ room }) => {
  const found = ROOMS.get(room);
  if (!found) throw new ToolError(`no room named '${room}'`); // ToolError: the client reads this text
  return found;
});

// A resolver may return a question instead of a value: the library asks the person (a push on
// 2025-11-25, an input_required round on 2026-07-28) and hands the answer on, validated.
const askNights = resolver({ name: 'nights', deps: { room: loadRoom } }, ({ room }) =>
  elicit(
    `How many nights in the ${room.name} room?`,
    z.object({
      // A title, a description and a default: the person can answer with one click.
      nights: z.int().min(1).max(14).default(1).meta({ title: 'Nights', description: 'From 1 to 14.' }),
    }),
  ),
);

/** The server: one definition, served over stdio here; the serve-*.ts examples host it elsewhere. */
export const createHotel = (options?: McpResolveServerOptions): McpResolveServer =>
  new McpResolveServer({ name: 'hotel', version: '1.0.0' }, options).tool(
    'book_room',
    {
      description: 'Book a room. The price comes from the hotel, not from the caller.',
      input: { room: z.string() }, // what the model sees
      resolve: { stay: askNights, details: loadRoom }, // what it never sees
    },
    ({ stay, details }) =>
      `booked ${details.name} for ${stay.nights} night(s): ${stay.nights * details.cents_per_night} cents`,
  );

// Run directly: serve over stdio. Imported (by a test): just the server.
if (process.argv[1] === fileURLToPath(import.meta.url)) serveStdio(createHotel());
