/** The multi-round walk-through runs end to end: the honest rounds complete and every attack is refused. */
import { describe, expect, it } from 'vitest';

import { runWalkthrough } from '../../examples/stories/mrtr-walkthrough/walkthrough.js';

describe('mrtr-walkthrough story', () => {
  it('completes the honest rounds and refuses tamper, forgery, a foreign key and replay', async () => {
    const lines: string[] = [];
    const report = await runWalkthrough((line) => lines.push(line));
    expect(report.failed, lines.join('\n')).toBe(0);
    // 4 honest-round checks + 4 attacks × 2 checks + the foreign mint + round 3 + the twin.
    expect(report.passed).toBe(15);
    expect(lines).toContain('    server log: requestState rejected on tools/call: tampered');
    expect(lines).toContain(
      '    server log: requestState rejected on tools/call: unknown_key (sealed with a key this process does not have: set the same MCP_REQUEST_STATE_KEYS (or requestState.keys) on every instance and keep it across restarts)',
    );
    expect(lines).toContain('    server log: requestState rejected on tools/call: replayed');
    expect(lines.at(-1)).toBe('mrtr-walkthrough 2026-07-28: 15 passed, 0 failed');
  });
});
