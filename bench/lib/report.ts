/** Rendering a run as markdown (printed and written to bench/results/) and as JSON. */
import type { Machine } from './machine.js';
import { machineLine } from './machine.js';
import type { Json, SectionResult, Table, TargetCheck } from './registry.js';

/** A finished section, or the error that stopped it. */
export type SectionOutcome =
  | {
      readonly id: string;
      readonly title: string;
      readonly ok: true;
      readonly result: SectionResult;
      readonly seconds: number;
    }
  | {
      readonly id: string;
      readonly title: string;
      readonly ok: false;
      readonly error: string;
      readonly seconds: number;
    };

/** A whole run. */
export interface RunReport {
  readonly startedAt: string;
  readonly mode: 'full' | 'quick';
  readonly seconds: number;
  readonly machine: Machine;
  readonly loadAverageAtEnd: number;
  readonly sections: readonly SectionOutcome[];
  /** Process warnings emitted during the run (e.g. listener leaks), with the top of their stack. */
  readonly warnings: readonly string[];
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** A markdown table. */
export function markdownTable(table: Table): string {
  const lines = [
    `| ${table.columns.map(cell).join(' | ')} |`,
    `| ${table.columns.map(() => '---').join(' | ')} |`,
    ...table.rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ];
  return lines.join('\n');
}

function targetsTable(targets: readonly TargetCheck[]): string {
  return markdownTable({
    columns: ['figure', 'target', 'measured', ''],
    rows: targets.map((target) => [target.what, target.target, target.measured, target.met ? 'met' : '**missed**']),
  });
}

/** The report as markdown. */
export function renderMarkdown(report: RunReport): string {
  const out: string[] = ['# mcp-resolve benchmarks', ''];
  out.push(
    `- Run: ${report.startedAt}, ${report.mode === 'full' ? 'full run' : 'quick smoke run (few repetitions: do not quote these figures)'}, ${Math.round(report.seconds)} s.`,
    `- Machine: ${machineLine(report.machine)}; load average ${report.loadAverageAtEnd} at the end.`,
    '- Reproduce: `npm run bench` (full) or `npm run bench -- --quick` (smoke); see contributing/performance.md.',
    '- Figures are medians over repeated runs after warm-up, with the interquartile range in parentheses unless stated otherwise.',
    '',
  );
  const targets = report.sections.flatMap((section) => (section.ok ? section.result.targets : []));
  if (targets.length > 0) out.push('## Targets', '', targetsTable(targets), '');
  if (report.warnings.length > 0) {
    out.push('## Process warnings during the run', '');
    for (const warning of report.warnings) out.push('```text', warning, '```', '');
  }
  for (const section of report.sections) {
    out.push(`## ${section.title}`, '');
    if (!section.ok) {
      out.push(`**Failed:** ${section.error}`, '');
      continue;
    }
    for (const table of section.result.tables) {
      if (table.caption !== undefined) out.push(table.caption, '');
      out.push(markdownTable(table), '');
    }
    for (const note of section.result.notes) out.push(`- ${note}`);
    if (section.result.notes.length > 0) out.push('');
  }
  return out.join('\n');
}

/** The report as JSON (every figure with its spread). */
export function renderJson(report: RunReport): Json {
  return {
    startedAt: report.startedAt,
    mode: report.mode,
    seconds: report.seconds,
    machine: { ...report.machine },
    loadAverageAtEnd: report.loadAverageAtEnd,
    warnings: [...report.warnings],
    sections: report.sections.map((section): Json =>
      section.ok
        ? {
            id: section.id,
            title: section.title,
            seconds: section.seconds,
            tables: section.result.tables.map((table) => ({
              caption: table.caption ?? null,
              columns: [...table.columns],
              rows: table.rows.map((row) => [...row]),
            })),
            notes: [...section.result.notes],
            targets: section.result.targets.map((target) => ({ ...target })),
            data: section.result.data,
          }
        : { id: section.id, title: section.title, seconds: section.seconds, error: section.error },
    ),
  };
}
