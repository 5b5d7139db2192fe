/**
 * The refund desk story runs end to end over real stdio and HTTP on both eras, and every check
 * passes: the seed's desk against the contract's table on all four combinations, the guided
 * variant against its own table on two.
 */
import { describe, expect, it } from 'vitest';

import type { StoryTransport } from '../../examples/stories/lib/serverProcess.js';
import { runRefundDesk } from '../../examples/stories/refund-desk/client.js';

const COMBINATIONS = (['stdio', 'http'] satisfies StoryTransport[]).flatMap((transport) =>
  (['modern', 'legacy'] as const).map((era) => ({ transport, era })),
);

describe('refund desk story', () => {
  it.each(COMBINATIONS)('passes every check over $transport on the $era era', async ({ transport, era }) => {
    const lines: string[] = [];
    const report = await runRefundDesk({ transport, era, log: (line) => lines.push(line) });
    expect(report.failed, lines.join('\n')).toBe(0);
    // tools/list (2 checks) + 6 calls × (result, legs or pushes, question counts) + 2 form checks.
    expect(report.passed).toBe(22);
    expect(lines.at(-1)).toMatch(/^refund-desk (stdio|http) (2026-07-28|2025-11-25): 22 passed, 0 failed$/);
    // The seed's call 4: the typed SKU is checked by the desk, not re-asked.
    expect(lines).toContain("    result: error: order has no item 'mystery-hat'");
  });
});

describe('guided refund desk story', () => {
  it.each([
    { transport: 'stdio', era: 'legacy' },
    { transport: 'http', era: 'modern' },
  ] as const)('passes every check over $transport on the $era era', async ({ transport, era }) => {
    const lines: string[] = [];
    const report = await runRefundDesk({ transport, era, variant: 'guided', log: (line) => lines.push(line) });
    expect(report.failed, lines.join('\n')).toBe(0);
    // The same 22 checks, plus call 4's check that each re-asking showed its reason.
    expect(report.passed).toBe(23);
    expect(lines.at(-1)).toMatch(/^refund-desk-guided (stdio|http) (2026-07-28|2025-11-25): 23 passed, 0 failed$/);
  });
});
