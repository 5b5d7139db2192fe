/**
 * Testing a server with `mcp-resolve/testing`: connect a real SDK client in process on either
 * protocol era, answer the questions from a script, and count what crossed the wire.
 *
 *   npx tsx examples/testing.ts    # exits non-zero if a check fails (use your test runner's expect instead)
 */
import assert from 'node:assert/strict';

import { connectInProcess } from 'mcp-resolve/testing';

import { createHotel } from './tool.js';

for (const era of ['modern', 'legacy'] as const) {
  // `elicit` answers each question: it receives the request's params (message, requestedSchema).
  const connection = await connectInProcess(createHotel(), {
    era,
    elicit: (params) => {
      assert.match(params.message, /How many nights/);
      return { action: 'accept', content: { nights: 3 } };
    },
  });
  try {
    const result = await connection.client.callTool({ name: 'book_room', arguments: { room: 'garden' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'booked garden for 3 night(s): 36000 cents' }]);

    // The same question, carried differently: a second tools/call leg on 2026-07-28, a push on 2025-11-25.
    const { legs, pushes } = connection.counters;
    assert.deepEqual([legs['tools/call'], pushes], era === 'modern' ? [2, 0] : [1, 1]);

    // A ToolError is an isError result whose text the client may read.
    const missing = await connection.client.callTool({ name: 'book_room', arguments: { room: 'attic' } });
    assert.equal(missing.isError, true);
  } finally {
    await connection.close();
  }
  console.log(`testing.ts: ${era} ok`);
}
