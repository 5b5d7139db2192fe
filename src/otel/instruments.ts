/**
 * The metrics `otel()` records. Semantic-convention names where one exists
 * (`mcp.server.operation.duration`); the rest under `mcp_resolve.*` (docs/guides/observability.md).
 */
import type { Counter, Histogram, Meter, UpDownCounter } from '@opentelemetry/api';

/** Every instrument, created once per `otel()`. */
export interface Instruments {
  /** `mcp.server.operation.duration` (s): one inbound request, by method, tool and error type. */
  readonly operationDuration: Histogram;
  /** `mcp_resolve.calls`: logical calls that ended, by tool and outcome. */
  readonly calls: Counter;
  /** `mcp_resolve.call.rounds`: the requests a logical call took, recorded when it ends. */
  readonly rounds: Histogram;
  /** `mcp_resolve.questions`: questions sent (an `input_required` entry or a push), by tool, key and kind. */
  readonly questions: Counter;
  /** `mcp_resolve.question.duration` (s): from asking a question to reading its answer. */
  readonly questionDuration: Histogram;
  /** `mcp_resolve.state.refusals`: inbound `requestState` refused, by reason code. */
  readonly refusals: Counter;
  /** `mcp_resolve.state.replays`: inbound `requestState` refused because it was already used. */
  readonly replays: Counter;
  /** `mcp_resolve.task.status_changes`: task status changes, by new status. */
  readonly taskStatus: Counter;
  /** `mcp_resolve.legacy.sessions.open`: legacy (2025-11-25) HTTP sessions open on this instance. */
  readonly legacySessions: UpDownCounter;
}

/** Creates the instruments on `meter`. */
export function createInstruments(meter: Meter): Instruments {
  return {
    operationDuration: meter.createHistogram('mcp.server.operation.duration', {
      unit: 's',
      description: 'Duration of an MCP request as observed on the server.',
      advice: { explicitBucketBoundaries: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300] },
    }),
    calls: meter.createCounter('mcp_resolve.calls', { unit: '{call}', description: 'Logical tool calls that ended.' }),
    rounds: meter.createHistogram('mcp_resolve.call.rounds', {
      unit: '{round}',
      description: 'Requests one logical tool call took, recorded when it ends.',
      advice: { explicitBucketBoundaries: [1, 2, 3, 4, 5, 6, 8, 10, 16] },
    }),
    questions: meter.createCounter('mcp_resolve.questions', { unit: '{question}', description: 'Questions sent.' }),
    questionDuration: meter.createHistogram('mcp_resolve.question.duration', {
      unit: 's',
      description: 'Time from asking a question to reading its answer.',
      advice: { explicitBucketBoundaries: [0.01, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300, 600, 1800] },
    }),
    refusals: meter.createCounter('mcp_resolve.state.refusals', {
      unit: '{refusal}',
      description: 'Inbound requestState refused, by reason.',
    }),
    replays: meter.createCounter('mcp_resolve.state.replays', {
      unit: '{refusal}',
      description: 'Inbound requestState refused because it was already used.',
    }),
    taskStatus: meter.createCounter('mcp_resolve.task.status_changes', {
      unit: '{change}',
      description: 'Task status changes, by new status.',
    }),
    legacySessions: meter.createUpDownCounter('mcp_resolve.legacy.sessions.open', {
      unit: '{session}',
      description: 'Legacy (2025-11-25) HTTP sessions open on this instance.',
    }),
  };
}
