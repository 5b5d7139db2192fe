/** The expense approval story runs end to end over real stdio and HTTP on both eras, and every check passes. */
import { describe, expect, it } from 'vitest';

import type { StoryTransport } from '../../examples/stories/lib/serverProcess.js';
import { runExpenseApproval } from '../../examples/stories/expense-approval/client.js';

const COMBINATIONS = (['stdio', 'http'] satisfies StoryTransport[]).flatMap((transport) =>
  (['modern', 'legacy'] as const).map((era) => ({ transport, era })),
);

/**
 * Checks per run: tasks on 2026-07-28 (6 submissions, one partial answer, one declined question,
 * one cancel), pushes on 2025-11-25 (5 submissions); then the approver form's check.
 */
const CHECKS = { modern: 20, legacy: 16 } as const;

describe('expense approval story', () => {
  it.each(COMBINATIONS)('passes every check over $transport on the $era era', async ({ transport, era }) => {
    const lines: string[] = [];
    const report = await runExpenseApproval({ transport, era, log: (line) => lines.push(line) });
    expect(report.failed, lines.join('\n')).toBe(0);
    expect(report.passed).toBe(CHECKS[era]);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^expense-approval ${transport} (2026-07-28|2025-11-25): ${CHECKS[era]} passed, 0 failed$`),
    );
  });
});
