/** The dual-era elicitation story: a form and a URL-mode question over stdio and HTTP on both eras. */
import { describe, expect, it } from 'vitest';

import { runDualEra } from '../../examples/stories/dual-era-elicitation/client.js';

const COMBINATIONS = (['stdio', 'http'] as const).flatMap((transport) =>
  (['modern', 'legacy'] as const).map((era) => ({ transport, era })),
);

describe('dual-era elicitation story', () => {
  it.each(COMBINATIONS)('passes every check over $transport on the $era era', async ({ transport, era }) => {
    const lines: string[] = [];
    const report = await runDualEra(transport, era, (line) => lines.push(line));
    expect(report.failed, lines.join('\n')).toBe(0);
    expect(report.passed).toBe(7);
    expect(lines.at(-1)).toMatch(/^dual-era-elicitation (stdio|http) (2026-07-28|2025-11-25): 7 passed, 0 failed$/);
    expect(lines).toContain('    page says: Deposit paid. You can go back to your assistant.');
    // The page's completion notification reaches the client on 2025-11-25 only.
    expect(lines.includes('    notified: elicitation Chez Loopback:4 complete')).toBe(era === 'legacy');
  });
});
