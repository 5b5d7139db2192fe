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

/** The `tools/call` SERVER spans of `spans` (a call's rounds), oldest first. */
export function callSpansOf(spans: readonly SpanLine[]): SpanLine[] {
  return serverSpansOf(spans).filter((span) => span.attributes['mcp.method.name'] === 'tools/call');
}

/** The rounds of each trace that has `tools/call` SERVER spans (other requests, e.g. `tools/list`, have traces of their own). */
export function callTracesOf(spans: readonly SpanLine[]): SpanLine[][] {
  return [...tracesOf(spans).values()].map(callSpansOf).filter((rounds) => rounds.length > 0);
}

/** The trace whose `tools/call` SERVER spans ran on the most instances (ties: the most rounds). */
export function mostSpreadTrace(spans: readonly SpanLine[]): SpanLine[] | undefined {
  let best: SpanLine[] | undefined;
  let bestScore = -1;
  for (const trace of tracesOf(spans).values()) {
    const servers = callSpansOf(trace);
    const score = new Set(servers.map((span) => span.attributes['mcp_resolve.instance'])).size * 100 + servers.length;
    if (score > bestScore) [best, bestScore] = [trace, score];
  }
  return best;
}
