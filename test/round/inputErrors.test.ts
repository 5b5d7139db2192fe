/** Issue 23 item 1: an input error names the field, as the SDK's own `registerTool` does. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { McpResolveServer } from 'mcp-resolve';
import { connectInProcess } from 'mcp-resolve/testing';

const server = new McpResolveServer({ name: 'rooms', version: '1.0.0' }).tool(
  'book_room',
  { input: { booking_id: z.string(), guest: z.object({ name: z.string() }) } },
  ({ booking_id }) => `booked ${booking_id}`,
);

describe.each(['modern', 'legacy'] as const)('input errors on %s', (era) => {
  it('prefix each issue with its dotted field path', async () => {
    const connection = await connectInProcess(server, { era });
    const result = await connection.client.callTool({ name: 'book_room', arguments: { guest: {} } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text:
          'Input validation error: Invalid arguments for tool book_room: ' +
          'booking_id: Invalid input: expected string, received undefined; ' +
          'guest.name: Invalid input: expected string, received undefined',
      },
    ]);
    await connection.close();
  });
});
