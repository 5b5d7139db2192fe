/**
 * OpenTelemetry: `otel()` records a span per request (and per question round and task change)
 * and metrics through the OpenTelemetry API, to the providers you give it (or the global ones).
 * Nothing from arguments, answers or principals is exported unless a tool opts in.
 *
 *   PORT=3000 npx tsx examples/opentelemetry.ts    # spans printed on stdout as calls arrive
 *
 * For a collector, swap the exporter for `OTLPTraceExporter` from @opentelemetry/exporter-trace-otlp-http.
 */
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

import { serveHttp } from 'mcp-resolve/node';
import { otel } from 'mcp-resolve/otel';

import { createHotel } from './tool.js';

const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())],
});

const hotel = createHotel({
  telemetry: otel({
    tracerProvider,
    // Opt-in, per tool: attributes computed from its arguments (here the room, never the answers).
    toolAttributes: { book_room: (args) => ({ 'hotel.room': String(args.room) }) },
  }),
});

const handle = await serveHttp(hotel, { port: Number(process.env.PORT ?? 3000) });
console.error(`hotel listening on ${handle.url.href}`);

// Flush the last spans on the way out.
const stop = () => void handle.close().then(async () => (await tracerProvider.shutdown(), process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
