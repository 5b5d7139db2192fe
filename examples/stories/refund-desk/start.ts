/**
 * `npm start`: the refund desk on all four combinations of transport and protocol era, checked
 * against the contract's table. With `--guided` (`npm run story:guided-refund-desk`), the guided
 * variant and its own table instead. Exits non-zero if any run has a failed check.
 */
import { parseArgs } from 'node:util';

import type { StoryTransport } from '../lib/serverProcess.js';
import { runRefundDesk } from './client.js';

const { values } = parseArgs({ options: { guided: { type: 'boolean', default: false } } });
const variant = values.guided ? 'guided' : 'seed';
const desk = values.guided ? 'guided refund desk' : 'refund desk';

let failed = 0;
const summaries: string[] = [];
for (const transport of ['stdio', 'http'] satisfies StoryTransport[]) {
  for (const era of ['modern', 'legacy'] as const) {
    console.log(`\n=== ${desk} over ${transport}, ${era === 'modern' ? '2026-07-28' : '2025-11-25'} ===`);
    const report = await runRefundDesk({ transport, era, variant });
    failed += report.failed;
    summaries.push(report.summary);
  }
}
console.log(`\n${summaries.join('\n')}`);
process.exitCode = failed > 0 ? 1 : 0;
