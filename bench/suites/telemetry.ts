/**
 * 8. What OpenTelemetry costs: the refund desk with `telemetry: otel()` on a real SDK that records
 * every span (simple processor, an exporter that keeps nothing) and every metric, against the same
 * desk with no `telemetry` (the no-op path), per call and per round, through the bare peer.
 */
import type { ExportResult } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { otel } from '../../src/otel/index.js';
import { alternate } from '../lib/alternate.js';
import type { Benchmark, Json } from '../lib/registry.js';
import { fmt, fmtRatio, fmtSummary } from '../lib/stats.js';
import { check, openSide, planFor, SCENARIOS } from './overhead.js';

/** An exporter that receives every span and keeps none (the SDK still builds and hands over each one). */
const DISCARD: SpanExporter = {
  export(_spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    done({ code: 0 });
  },
  shutdown: async () => {},
};

export const telemetry: Benchmark = {
  id: 'telemetry',
  title: '9. OpenTelemetry cost',
  async run(context) {
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(DISCARD)] });
    // A reader, so every instrument records into real aggregations (collected once, at the end).
    const reader = new PeriodicExportingMetricReader({
      exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
      exportIntervalMillis: 3_600_000,
    });
    const meterProvider = new MeterProvider({ readers: [reader] });
    const observed = createRefundDesk({ telemetry: otel({ tracerProvider, meterProvider }) }).createServer;
    const plain = createRefundDesk().createServer;
    const rows: string[][] = [];
    const data: Json[] = [];
    const transport = 'in-memory, bare client';
    for (const era of ['modern', 'legacy'] as const) {
      const withOtel = await openSide(observed, transport, era);
      const without = await openSide(plain, transport, era);
      try {
        for (const scenario of SCENARIOS) {
          await check(withOtel, scenario.call, era, `otel ${era} ${scenario.id}`);
          await check(without, scenario.call, era, `no telemetry ${era} ${scenario.id}`);
          const paired = await alternate(
            () => withOtel.call(scenario.call),
            () => without.call(scenario.call),
            planFor(context, transport),
          );
          const perCall = paired.a.wall.median - paired.b.wall.median;
          const rounds = era === 'modern' ? scenario.call.modernLegs : 1;
          context.log(`  ${era} ${scenario.id}: +${fmt(perCall)} µs/call, ${fmtRatio(paired.ratio)}`);
          rows.push([
            era,
            `${scenario.id} ${scenario.label}`,
            fmtSummary(paired.a.wall),
            fmtSummary(paired.b.wall),
            fmtRatio(paired.ratio),
            fmt(perCall),
            String(rounds),
            fmt(perCall / rounds),
          ]);
          data.push({
            era,
            scenario: scenario.id,
            rounds,
            otelUs: { ...paired.a.wall },
            plainUs: { ...paired.b.wall },
            ratio: { ...paired.ratio },
          });
        }
      } finally {
        await withOtel.close();
        await without.close();
      }
    }
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    return {
      tables: [
        {
          columns: [
            'era',
            'call',
            'with otel() µs/call',
            'no telemetry µs/call',
            'ratio',
            'added µs/call',
            'requests',
            'added µs/request',
          ],
          rows,
        },
      ],
      notes: [
        'Bare in-memory peer (mostly server time), batches alternating as in section 1. The recording side runs the real SDK (`BasicTracerProvider` with a `SimpleSpanProcessor`, `MeterProvider` with a reader, so every metric is aggregated) and exports every span to an exporter that drops it: the cost of building, ending and handing over every span, not of any network. Added µs is the difference of the wall medians; per request divides it by the call’s `tools/call` requests (3 for the modern 1b call).',
        'The no-telemetry side is the asks-nothing path of section 1 (no `telemetry` option: one `undefined` check per request and per resolver run).',
      ],
      targets: [],
      data,
    };
  },
};
