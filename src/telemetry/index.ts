/**
 * `mcp-resolve/telemetry`: the observer interface the server reports to (requests, rounds,
 * resolvers, questions, sealing, pushes, tasks), for whoever writes an observer of their own.
 * `otel()` from `mcp-resolve/otel` is the OpenTelemetry one (docs/guides/observability.md).
 *
 * @packageDocumentation
 */
export type {
  CarriedTrace,
  QuestionKind,
  RequestInfo,
  RequestTrace,
  RoundOutcome,
  ServedMessage,
  StepEnd,
  TaskChange,
  Telemetry,
} from './hooks.js';
