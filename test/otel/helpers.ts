/** A real OpenTelemetry SDK recording in memory: spans through the in-memory exporter, metrics through a manual collect. */
import type { Attributes } from '@opentelemetry/api';
import { SpanKind } from '@opentelemetry/api';
import type { MetricData } from '@opentelemetry/sdk-metrics';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

import type { OtelOptions } from '../../src/otel/index.js';
import { otel } from '../../src/otel/index.js';
import type { Telemetry } from '../../src/telemetry/hooks.js';

/** Telemetry recorded by a real SDK. */
export interface Recording {
  readonly telemetry: Telemetry;
  /** Every finished span so far. */
  spans(): ReadableSpan[];
  /** Every metric collected now. */
  metrics(): Promise<MetricData[]>;
  shutdown(): Promise<void>;
}

/** An SDK recording spans in memory (or into `exporter`) and metrics on demand. */
export function recording(
  options: Omit<OtelOptions, 'tracerProvider' | 'meterProvider'> = {},
  exporter?: SpanExporter,
): Recording {
  const memory = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter ?? memory)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    telemetry: otel({ ...options, tracerProvider, meterProvider }),
    spans: () => memory.getFinishedSpans(),
    async metrics() {
      metricExporter.reset();
      await reader.forceFlush();
      return metricExporter.getMetrics().flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics));
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The sum of a counter's points whose attributes include `match`. */
export function counterSum(metrics: MetricData[], name: string, match: Attributes = {}): number {
  return pointsOf(metrics, name, match).reduce(
    (sum, point) => sum + (typeof point.value === 'number' ? point.value : 0),
    0,
  );
}

/** A histogram's count and sum over its points whose attributes include `match`. */
export function histogram(metrics: MetricData[], name: string, match: Attributes = {}): { count: number; sum: number } {
  let count = 0;
  let sum = 0;
  for (const point of pointsOf(metrics, name, match)) {
    const value = point.value as { count?: unknown; sum?: unknown } | null;
    if (typeof value?.count === 'number') count += value.count;
    if (typeof value?.sum === 'number') sum += value.sum;
  }
  return { count, sum };
}

function pointsOf(
  metrics: MetricData[],
  name: string,
  match: Attributes,
): Array<{ attributes: Attributes; value: unknown }> {
  const metric = metrics.find((candidate) => candidate.descriptor.name === name);
  if (metric === undefined) return [];
  return (metric.dataPoints as Array<{ attributes: Attributes; value: unknown }>).filter((point) =>
    Object.entries(match).every(([key, value]) => point.attributes[key] === value),
  );
}

/** Every attribute value a span, its links and events, and every metric point export, with where it is. */
export function exportedValues(
  spans: readonly ReadableSpan[],
  metrics: readonly MetricData[],
): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const add = (where: string, attributes: Attributes | undefined) => {
    for (const [key, value] of Object.entries(attributes ?? {})) out.push([`${where} ${key}`, value]);
  };
  for (const span of spans) {
    add(`span '${span.name}'`, span.attributes);
    out.push([`span name`, span.name], [`span '${span.name}' status`, span.status.message]);
    for (const link of span.links) add(`span '${span.name}' link`, link.attributes);
    for (const event of span.events) add(`span '${span.name}' event ${event.name}`, event.attributes);
  }
  for (const metric of metrics)
    for (const point of metric.dataPoints as Array<{ attributes: Attributes }>)
      add(`metric ${metric.descriptor.name}`, point.attributes);
  return out;
}

/** The `tools/call` SERVER spans among `spans` (the rounds of calls), oldest first. */
export function callSpans(spans: readonly ReadableSpan[]): ReadableSpan[] {
  return serverSpans(spans).filter((span) => span.attributes['mcp.method.name'] === 'tools/call');
}

/** The SERVER spans among `spans`, oldest first. */
export function serverSpans(spans: readonly ReadableSpan[]): ReadableSpan[] {
  return spans
    .filter((span) => span.kind === SpanKind.SERVER)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
}
