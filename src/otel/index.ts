/**
 * `mcp-resolve/otel`: OpenTelemetry traces and metrics for an `McpResolveServer`, through
 * `@opentelemetry/api` (an optional peer: only this entry imports it). Pass `telemetry: otel()`.
 *
 * @packageDocumentation
 */
import type { Attributes, MeterProvider, TracerProvider } from '@opentelemetry/api';
import { metrics, trace } from './api.js';

import { McpResolveError } from '../errors.js';
import type { Telemetry } from '../telemetry/hooks.js';
import { createInstruments } from './instruments.js';
import { safely } from './failures.js';
import { OtelRequest, type OtelShared } from './requestSpan.js';
import { recordServed, recordTaskChange } from './served.js';

/** The instrumentation scope name of every span and metric. */
export const INSTRUMENTATION_SCOPE = 'mcp-resolve';

/** Options of {@link otel}. */
export interface OtelOptions {
  /** Where spans go; default the global provider (`trace.setGlobalTracerProvider`, or the SDK's registration). */
  readonly tracerProvider?: TracerProvider;
  /** Where metrics go; default the global provider. */
  readonly meterProvider?: MeterProvider;
  /** This instance's name, exported as `mcp_resolve.instance` on every SERVER span (fleets). */
  readonly instance?: string;
  /**
   * The author's opt-in, per tool: attributes a tool's SERVER span carries, computed from its
   * arguments. Nothing from arguments, answers or principals is exported otherwise.
   */
  readonly toolAttributes?: Readonly<Record<string, (args: Readonly<Record<string, unknown>>) => Attributes>>;
  /**
   * Whether a client's `traceparent` trace flags are obeyed. By default they are not: a call is
   * traced whatever the flags say (the client's trace id still parents the span), so a client sending
   * flags `00` cannot switch off the tracing of its own calls. `true` lets `00` mark them unsampled
   * (for a sampler that follows the parent). @default false
   */
  readonly honorClientTraceFlags?: boolean;
}

/** An observer recording spans and metrics through the OpenTelemetry API; failures inside it never fail a call. */
export function otel(options: OtelOptions = {}): Telemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_SCOPE);
  const instruments = createInstruments(meter);
  const opted = options.toolAttributes ?? {};
  const honor = options.honorClientTraceFlags;
  if (honor !== undefined && typeof honor !== 'boolean') {
    throw new McpResolveError(
      'invalid_options',
      `otel(): honorClientTraceFlags must be true or false (got ${String(honor)}). Leave it out to ignore clients' trace flags.`,
      { data: { api: 'otel()', option: 'honorClientTraceFlags' } },
    );
  }
  const shared: OtelShared = {
    tracer,
    instruments,
    serverAttributes: options.instance === undefined ? {} : { 'mcp_resolve.instance': options.instance },
    toolAttributes: (tool, args) => (Object.hasOwn(opted, tool) ? opted[tool]?.(args) : undefined),
    honorClientTraceFlags: options.honorClientTraceFlags === true,
    tasks: new Map(),
  };
  return {
    request: (info) => new OtelRequest(shared, info),
    taskStatus: (change) => recordTaskChange(shared, change),
    served: (message) => recordServed(shared, message),
    legacySessions: (delta) => safely(() => instruments.legacySessions.add(delta)),
  };
}
