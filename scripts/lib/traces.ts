/** Reading exported span lines back: the traces in a JSON-lines file and the SERVER spans of each. */
import { readFileSync } from 'node:fs';

import type { SpanLine } from '../../examples/stories/lib/spans.js';

/** SpanKind.SERVER in the OpenTelemetry API. */
const SERVER = 1;

/** Every span line in `path` (a missing file has none). */
export function readSpanLines(path: string): SpanLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SpanLine);
}

/** The spans of each trace, by trace id. */
export function tracesOf(spans: readonly SpanLine[]): Map<string, SpanLine[]> {
  const traces = new Map<string, SpanLine[]>();
  for (const span of spans) traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
  return traces;
}

/** The SERVER spans of `spans`, oldest first. */
export function serverSpansOf(spans: readonly SpanLine[]): SpanLine[] {
  return spans.filter((span) => span.kind === SERVER).sort((a, b) => a.start - b.start);
}

/** The trace whose SERVER spans ran on the most instances (ties: the most rounds). */
export function mostSpreadTrace(spans: readonly SpanLine[]): SpanLine[] | undefined {
  let best: SpanLine[] | undefined;
  let bestScore = -1;
  for (const trace of tracesOf(spans).values()) {
    const servers = serverSpansOf(trace);
    const score = new Set(servers.map((span) => span.attributes['mcp_resolve.instance'])).size * 100 + servers.length;
    if (score > bestScore) [best, bestScore] = [trace, score];
  }
  return best;
}
