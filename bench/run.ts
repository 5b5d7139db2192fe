/**
 * The benchmark runner.
 *
 *   npm run bench                 # full run: writes bench/results/latest.md (committed) and JSON
 *   npm run bench -- --quick      # smoke run for CI (< 1 minute): writes bench/results/quick.md and JSON
 *   npm run bench -- --only overhead,sealing   # some sections: writes bench/results/partial.md and JSON
 *
 * Prints the markdown report on stdout and progress on stderr. Exits non-zero only when a
 * benchmark fails to run (a missed target is reported, not failed).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { format, resolveConfig } from 'prettier';

import type { BenchContext } from './lib/registry.js';
import { describeMachine, requireSupportedNode } from './lib/machine.js';
import type { RunReport, SectionOutcome } from './lib/report.js';
import { renderJson, renderMarkdown } from './lib/report.js';
import { BENCHMARKS } from './suites/index.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});

requireSupportedNode('bench');
const quick = values.quick;
const only = values.only?.split(',').map((id) => id.trim());
const unknown = only?.filter((id) => !BENCHMARKS.some((benchmark) => benchmark.id === id)) ?? [];
if (unknown.length > 0) {
  console.error(`Unknown benchmark id(s): ${unknown.join(', ')}. Known: ${BENCHMARKS.map((b) => b.id).join(', ')}.`);
  process.exit(2);
}

const context: BenchContext = {
  quick,
  log: (line) => console.error(line),
  pick: (full, smoke) => (quick ? smoke : full),
};

// Warnings (a listener leak, a deprecation) are part of the result: keep the first of each kind.
const warnings = new Map<string, string>();
process.on('warning', (warning) => {
  const key = `${warning.name}: ${warning.message.replace(/\d+/g, 'N')}`;
  if (!warnings.has(key))
    warnings.set(key, (warning.stack ?? `${warning.name}: ${warning.message}`).split('\n').slice(0, 12).join('\n'));
});

const machine = describeMachine();
const startedAt = new Date();
const started = performance.now();
const sections: SectionOutcome[] = [];
for (const benchmark of BENCHMARKS) {
  if (only !== undefined && !only.includes(benchmark.id)) continue;
  context.log(`${benchmark.title} …`);
  const sectionStart = performance.now();
  const seconds = () => Math.round((performance.now() - sectionStart) / 100) / 10;
  try {
    const result = await benchmark.run(context);
    sections.push({ id: benchmark.id, title: benchmark.title, ok: true, result, seconds: seconds() });
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    context.log(`  failed: ${message}`);
    sections.push({
      id: benchmark.id,
      title: benchmark.title,
      ok: false,
      error: message.split('\n')[0] ?? message,
      seconds: seconds(),
    });
  }
  context.log(`  (${seconds()} s)`);
}

const report: RunReport = {
  startedAt: startedAt.toISOString(),
  mode: quick ? 'quick' : 'full',
  seconds: (performance.now() - started) / 1000,
  machine,
  loadAverageAtEnd: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  sections,
  warnings: [...warnings.values()],
};

// Formatted as `npm run format` would, so the committed table never churns.
const markdown = await format(renderMarkdown(report), {
  ...(await resolveConfig(fileURLToPath(import.meta.url))),
  parser: 'markdown',
});
const json = `${JSON.stringify(renderJson(report), null, 2)}\n`;
const results = fileURLToPath(new URL('./results/', import.meta.url));
await mkdir(results, { recursive: true });
const stamp = report.startedAt.replaceAll(':', '-').replace(/\.\d+Z$/, 'Z');
// Only a full run of every section replaces the committed table (latest.md).
const name = only !== undefined ? 'partial' : quick ? 'quick' : 'latest';
const written = [`${name}.md`, `${name}.json`, `${report.mode}-${stamp}.json`];
await writeFile(`${results}${name}.md`, markdown);
await writeFile(`${results}${name}.json`, json);
await writeFile(`${results}${report.mode}-${stamp}.json`, json);
console.log(markdown);
context.log(`wrote ${written.map((file) => `bench/results/${file}`).join(', ')}`);
process.exitCode = sections.every((section) => section.ok) ? 0 : 1;
