/**
 * Span export for story servers (`--otel console|file:PATH|otlp`): a tracer provider from the
 * OpenTelemetry SDK whose spans go to stderr or a file as JSON lines (stdout is the stdio protocol's),
 * or to an OTLP/HTTP collector (`OTEL_EXPORTER_OTLP_ENDPOINT`).
 */
import { appendFileSync } from 'node:fs';

import type { ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** One exported span as a JSON line: what the waterfall script reads. */
export interface SpanLine {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  readonly kind: number;
  /** Start and end, ms since the epoch. */
  readonly start: number;
  readonly end: number;
  readonly status: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly links: ReadonlyArray<{ readonly traceId: string; readonly spanId: string }>;
}

const ms = ([seconds, nanos]: readonly [number, number]): number => seconds * 1000 + nanos / 1e6;

/** A span as a {@link SpanLine}. */
export function spanLine(span: ReadableSpan): SpanLine {
  return {
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    name: span.name,
    kind: span.kind,
    start: ms(span.startTime),
    end: ms(span.endTime),
    status: span.status.code,
    attributes: { ...span.attributes },
    links: span.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId })),
  };
}

/** Writes each span as one JSON line through `write`. */
class JsonLinesExporter implements SpanExporter {
  constructor(private readonly write: (line: string) => void) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    for (const span of spans) this.write(`${JSON.stringify(spanLine(span))}\n`);
    done({ code: 0 });
  }

  async shutdown(): Promise<void> {}
}

/**
 * The tracer provider `--otel <spec>` asks for: `console` (JSON lines on stderr), `file:PATH`
 * (JSON lines appended to PATH), `otlp` (OTLP/HTTP, batched, to `OTEL_EXPORTER_OTLP_ENDPOINT`).
 */
export function storyTracerProvider(spec: string): BasicTracerProvider {
  if (spec === 'otlp')
    return new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  const write =
    spec === 'console'
      ? (line: string) => process.stderr.write(line)
      : spec.startsWith('file:')
        ? (line: string) => appendFileSync(spec.slice('file:'.length), line)
        : undefined;
  if (write === undefined) throw new Error(`--otel must be console, file:PATH or otlp (got ${JSON.stringify(spec)}).`);
  return new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new JsonLinesExporter(write))] });
}
