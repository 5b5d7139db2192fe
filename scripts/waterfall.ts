/**
 * Draws one exported trace as an SVG waterfall: one row per span in tree order, bars on a shared
 * time axis, coloured by the fleet instance whose SERVER span they belong to.
 *
 *   npx tsx scripts/waterfall.ts TRACE.json OUT.svg     # TRACE.json: what `npm run fleet -- --trace-out` wrote
 */
import { readFileSync, writeFileSync } from 'node:fs';

import type { SpanLine } from '../examples/stories/lib/spans.js';

const ROW = 22;
const LABEL = 330;
const CHART = 620;
const TOP = 58;
const COLOURS = ['#3b82f6', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6'];

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The spans in depth-first order from the roots, each with its depth. */
function treeOrder(spans: readonly SpanLine[]): Array<{ span: SpanLine; depth: number }> {
  const ids = new Set(spans.map((span) => span.spanId));
  const children = new Map<string | undefined, SpanLine[]>();
  for (const span of spans) {
    const parent = span.parentSpanId !== undefined && ids.has(span.parentSpanId) ? span.parentSpanId : undefined;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const out: Array<{ span: SpanLine; depth: number }> = [];
  const visit = (parent: string | undefined, depth: number): void => {
    for (const span of (children.get(parent) ?? []).sort((a, b) => a.start - b.start)) {
      out.push({ span, depth });
      visit(span.spanId, depth + 1);
    }
  };
  visit(undefined, 0);
  return out;
}

/** The instance each span ran on: its own attribute, else its nearest SERVER ancestor's. */
function instanceOf(span: SpanLine, byId: ReadonlyMap<string, SpanLine>): string {
  for (
    let at: SpanLine | undefined = span;
    at !== undefined;
    at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined
  ) {
    const instance = at.attributes['mcp_resolve.instance'];
    if (typeof instance === 'string') return instance;
  }
  return '?';
}

/** The SVG of `spans` (one trace). */
export function waterfall(spans: readonly SpanLine[]): string {
  const rows = treeOrder(spans);
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const start = Math.min(...spans.map((span) => span.start));
  const total = Math.max(...spans.map((span) => span.end)) - start || 1;
  const x = (ms: number): number => LABEL + ((ms - start) / total) * CHART;
  const instances = [...new Set(rows.map(({ span }) => instanceOf(span, byId)))].sort();
  const colour = (instance: string): string => COLOURS[instances.indexOf(instance) % COLOURS.length] ?? '#888';
  const height = TOP + rows.length * ROW + 30;
  const width = LABEL + CHART + 90;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="monospace" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">trace ${spans[0]?.traceId ?? ''}: ${rows.length} spans, ${total.toFixed(1)} ms</text>`,
    ...instances.map(
      (instance, index) =>
        `<rect x="${10 + index * 120}" y="32" width="12" height="12" fill="${colour(instance)}"/><text x="${26 + index * 120}" y="42">${escape(instance)}</text>`,
    ),
  ];
  rows.forEach(({ span, depth }, index) => {
    const y = TOP + index * ROW;
    const left = x(span.start);
    const barWidth = Math.max(2, x(span.end) - left);
    const round = span.attributes['mcp_resolve.round'];
    const label = `${span.name}${typeof round === 'number' ? ` #${round}` : ''}`;
    parts.push(
      `<text x="${10 + depth * 14}" y="${y + 14}">${escape(label.slice(0, 44 - depth * 2))}</text>`,
      `<rect x="${left.toFixed(1)}" y="${y + 3}" width="${barWidth.toFixed(1)}" height="${ROW - 6}" rx="2" fill="${colour(instanceOf(span, byId))}"${span.status === 2 ? ' stroke="#b91c1c" stroke-width="2"' : ''}/>`,
      `<text x="${(left + barWidth + 4).toFixed(1)}" y="${y + 14}" fill="#555">${(span.end - span.start).toFixed(2)} ms</text>`,
    );
  });
  parts.push(
    `<text x="${LABEL}" y="${height - 8}" fill="#555">0 ms</text>`,
    `<text x="${LABEL + CHART}" y="${height - 8}" fill="#555" text-anchor="end">${total.toFixed(1)} ms</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}

const [input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) {
  console.error('usage: tsx scripts/waterfall.ts TRACE.json OUT.svg');
  process.exit(2);
}
writeFileSync(output, waterfall(JSON.parse(readFileSync(input, 'utf8')) as SpanLine[]));
console.error(`waterfall: wrote ${output}`);
