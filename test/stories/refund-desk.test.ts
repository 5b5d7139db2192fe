/** The refund desk story runs end to end over real stdio and HTTP on both eras, and every check passes. */
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
    // tools/list (2 checks) + 6 calls × (result, legs or pushes, question counts) + 2 form checks + 1 re-asking check.
    expect(report.passed).toBe(23);
    expect(lines.at(-1)).toMatch(/^refund-desk (stdio|http) (2026-07-28|2025-11-25): 23 passed, 0 failed$/);
  });
});
