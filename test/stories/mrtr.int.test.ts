/**
 * The mrtr story over real stdio and HTTP: the automatic loop, the manual legs with the state
 * opaque on the wire, a tampered token refused with the frozen error (code, message and data), the
 * genuine token declining, and the same tool on 2025-11-25 as a push.
 */
import { describe, expect, it } from 'vitest';

import { runMrtr } from '../../examples/stories/mrtr/client.js';

describe('mrtr story', () => {
  it.each([
    { transport: 'stdio', era: 'modern', checks: 9 },
    { transport: 'http', era: 'modern', checks: 9 },
    { transport: 'http', era: 'legacy', checks: 3 },
  ] as const)('passes every check over $transport on the $era era', async ({ transport, era, checks }) => {
    const lines: string[] = [];
    const report = await runMrtr({ transport, era, log: (line) => lines.push(line) });
    expect(report.failed, lines.join('\n')).toBe(0);
    expect(report.passed).toBe(checks);
    expect(lines).toContain('    result: deployed to production');
    if (era === 'modern') {
      expect(lines).toContain('    result: deployment to staging cancelled');
      expect(lines).toContain('    refused: -32602 Invalid or expired requestState {"reason":"invalid_request_state"}');
    }
  });
});
