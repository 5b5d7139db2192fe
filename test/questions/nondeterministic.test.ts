/**
 * Issue 23 item 3: a question whose digest changes every round (built from a clock) fails the call
 * with a message citing the determinism rule, and logs one line for the operator.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { elicit, McpResolveServer, resolver } from 'mcp-resolve';
import { connectInProcess } from 'mcp-resolve/testing';

const RULE =
  "Question 'when' changed in two rounds in a row although it was answered each time: questions must be " +
  'derived deterministically from tool arguments and earlier answers (docs/guides/resolvers.md, "The determinism rule"). ' +
  'Build its message and schema without Date.now(), random ids or other per-round values; ' +
  'on a fleet, every instance must run the same code and read the same data for it.';

let tick = 0;
const when = resolver({ name: 'when' }, () => elicit(`Book now (asked at ${++tick})?`, z.object({ ok: z.boolean() })));

function server(lines: string[]): McpResolveServer {
  return new McpResolveServer(
    { name: 'rooms', version: '1.0.0' },
    { onerror: (error, info) => lines.push(`${info.name}: ${(error as Error).message}`) },
  ).tool('book', { resolve: { when } }, ({ when }) => (when.ok ? 'booked' : 'not booked'));
}

describe('a question built from a per-round value', () => {
  it('fails on modern after the person answered it twice, with one log line', async () => {
    const lines: string[] = [];
    let prompts = 0;
    const connection = await connectInProcess(server(lines), {
      era: 'modern',
      elicit: () => {
        prompts += 1;
        return { action: 'accept', content: { ok: true } };
      },
    });
    const result = await connection.client.callTool({ name: 'book', arguments: {} });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: RULE }] });
    expect(prompts).toBe(2);
    expect(lines).toEqual([`book: ${RULE}`]);
    await connection.close();
  });

  it('still works on legacy, where a question is asked once per call', async () => {
    const lines: string[] = [];
    const connection = await connectInProcess(server(lines), {
      era: 'legacy',
      elicit: () => ({ action: 'accept', content: { ok: true } }),
    });
    const result = await connection.client.callTool({ name: 'book', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'booked' }]);
    expect(lines).toEqual([]);
    await connection.close();
  });
});
