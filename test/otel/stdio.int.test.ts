/** The desk server as a subprocess over stdio, `--otel file:PATH`: its exported spans show one trace per call on both eras. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runRefundDesk } from '../../examples/stories/refund-desk/client.js';
import { callTracesOf, readSpanLines } from '../../scripts/lib/traces.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-resolve-otel-stdio-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['modern', [1, 3, 3, 2, 2, 1]],
  ['legacy', [1, 1, 1, 1, 1, 1]],
] as const)('the desk over stdio on the %s era', (era, rounds) => {
  it('exports one trace per call, rounds chained, with the reference attributes', async () => {
    const path = join(dir, `${era}.jsonl`);
    const report = await runRefundDesk({
      transport: 'stdio',
      era,
      serverArgs: ['--otel', `file:${path}`],
      log: () => {},
    });
    expect(report.failed).toBe(0);
    const traces = callTracesOf(readSpanLines(path));
    expect(traces.map((servers) => servers.length)).toEqual(rounds);
    for (const servers of traces) {
      servers.forEach((span, index) => {
        expect(span.attributes).toMatchObject({
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': 'refund_order',
          'mcp.protocol.version': era === 'modern' ? '2026-07-28' : '2025-11-25',
          'mcp_resolve.round': index + 1,
        });
        expect(span.parentSpanId).toBe(servers[index - 1]?.spanId);
      });
    }
  });
});
