/**
 * The legacy-elicitation story over real stdio and HTTP: a form question and a URL-mode question
 * as push requests on 2025-11-25 (and as rounds on 2026-07-28), with the reference's texts.
 */
import { describe, expect, it } from 'vitest';

import { runLegacyElicitation } from '../../examples/stories/legacy-elicitation/client.js';

describe('legacy-elicitation story', () => {
  it.each([
    { transport: 'stdio', era: 'legacy' },
    { transport: 'http', era: 'legacy' },
    { transport: 'http', era: 'modern' },
  ] as const)('passes every check over $transport on the $era era', async ({ transport, era }) => {
    const lines: string[] = [];
    const report = await runLegacyElicitation({ transport, era, log: (line) => lines.push(line) });
    expect(report.failed, lines.join('\n')).toBe(0);
    // tools/list + 4 calls × (legs or pushes, result) + the form, the URL and its id (and completion).
    expect(report.passed).toBe(12);
    expect(lines).toContain('    result: registered alice (plan: pro)');
    expect(lines).toContain('    result: linked github');
    expect(lines).toContain('    result: registered alice (plan: free)');
  });
});
