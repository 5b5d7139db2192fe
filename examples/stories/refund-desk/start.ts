/**
 * `npm start`: the refund desk on all four combinations of transport and protocol era.
 * Exits non-zero if any run has a failed check.
 */
import type { StoryTransport } from '../lib/serverProcess.js';
import { runRefundDesk } from './client.js';

let failed = 0;
const summaries: string[] = [];
for (const transport of ['stdio', 'http'] satisfies StoryTransport[]) {
  for (const era of ['modern', 'legacy'] as const) {
    console.log(`\n=== refund desk over ${transport}, ${era === 'modern' ? '2026-07-28' : '2025-11-25'} ===`);
    const report = await runRefundDesk({ transport, era });
    failed += report.failed;
    summaries.push(report.summary);
  }
}
console.log(`\n${summaries.join('\n')}`);
process.exitCode = failed > 0 ? 1 : 0;
