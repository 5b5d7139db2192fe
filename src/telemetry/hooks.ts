/**
 * What the library reports while it serves a request, for an observer passed as the `telemetry`
 * option (`mcp-resolve/otel` is the OpenTelemetry one). Nothing here imports OpenTelemetry: with no
 * observer the call path checks one `undefined` and goes on (docs/guides/observability.md).
 */
import type { Era } from '../protocol.js';

/**
 * How a request's round ended: a final result, a suspended call (`input_required`), a tool error
 * result, a JSON-RPC error, or a task created (the call goes on as that task).
 */
export type RoundOutcome = 'completed' | 'input_required' | 'tool_error' | 'error' | 'task';

/** The inbound request a trace is started for. */
export interface RequestInfo {
  /** `tools/call`, `prompts/get` or `resources/read`. */
  readonly method: string;
  /** The tool or prompt name, or the resource URI. */
  readonly target: string;
  /** The JSON-RPC id of the request. */
  readonly requestId: string | number;
  /** The protocol revision the request speaks, when known. */
  readonly protocolVersion: string | undefined;
  readonly era: Era;
  /** The request's arguments: an observer exports none of them unless the author opts in for this tool. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The request's `params._meta` (W3C `traceparent` / `tracestate` are read from it). */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** When the request arrived, ms since the epoch. */
  readonly startedAt: number;
}

/** What a suspended call carries to its next round inside the sealed state (never readable by the client). */
export interface CarriedTrace {
  /** The span context of the round that sealed: trace id (16 bytes), span id (8), flags (1). */
  readonly context: Uint8Array;
  /** How many rounds of this call came before the next one. */
  readonly rounds: number;
  /** When the state was sealed, ms since the epoch: the moment its questions were asked. */
  readonly sealedAt: number;
}

/** One request's observer. Every method must return normally: an observer never fails a call. */
export interface RequestTrace {
  /**
   * The request's state was opened (or refused, `refusal` the reason code) between `startedAt` and
   * now; `startedAt` is `undefined` when the request carried no state (a first round).
   */
  opened(carried: CarriedTrace | undefined, refusal: string | undefined, startedAt: number | undefined): void;
  /** What the next round needs to join this one, sealed into the outgoing state. */
  carry(): CarriedTrace | undefined;
  /** State was sealed between `startedAt` and now; `failure` is the reason code when it could not be. */
  sealed(startedAt: number, failure?: string): void;
  /** A resolver (named `label`) starts running; the returned function ends the step (`error` when it failed). */
  resolver(label: string): (error?: unknown) => void;
  /**
   * A question went out in an `input_required` result (modern). `kind` is the question's kind:
   * `elicit` (a form), `url` (a URL to open), `sample` (a sampling request) or `roots` (a roots
   * listing); a new kind of question brings a new name.
   */
  asked(key: string, kind: string, attempt: number): void;
  /** A question asked by an earlier round came back answered (modern); `kind` as in {@link RequestTrace.asked}. */
  answered(key: string, kind: string, action: string): void;
  /** A question is pushed on the legacy connection; the returned function ends its round trip. */
  pushed(key: string, kind: string, attempt: number): (action: string | undefined, error?: unknown) => void;
  /** A failure the client sees masked under `ref`. */
  masked(ref: string, error: unknown): void;
  /** This request created the task `taskId`: its status changes belong to this request's trace. */
  task(taskId: string): void;
  /** The round ended. */
  end(outcome: RoundOutcome, error?: unknown): void;
}

/**
 * An inbound message the server handled that no {@link RequestTrace} observed: every request other
 * than a library tool's `tools/call`, a prompt's `prompts/get` or a resource read (`initialize`,
 * `tools/list`, `tasks/get`, a tool registered in `setup()`, …), and every notification.
 */
export interface ServedMessage {
  /** The JSON-RPC method (`tools/list`, `notifications/initialized`, …). */
  readonly method: string;
  /** `params.name` when it is a string (a tool or prompt name). */
  readonly name: string | undefined;
  /** The JSON-RPC id; `undefined` for a notification. */
  readonly requestId: string | number | undefined;
  /** The protocol revision the message speaks, when known. */
  readonly protocolVersion: string | undefined;
  /** The era the message speaks (a 2026-07-28 message carries the per-request protocol version). */
  readonly era: Era;
  /** The message's `params._meta` (W3C `traceparent` / `tracestate` are read from it). */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** When it arrived, ms since the epoch (a notification ends there). */
  readonly startedAt: number;
  /** How the request ended: its JSON-RPC error code, `tool_error` for a `tools/call` result with `isError`, `undefined` when it succeeded. */
  readonly error: number | 'tool_error' | undefined;
}

/** A status change of the task `taskId`. */
export interface TaskChange {
  /** The task's id. */
  readonly taskId: string;
  /** The new status (`working`, `input_required`, `completed`, `failed`, `cancelled`). */
  readonly status: string;
}

/** An observer of what the library does: starts one {@link RequestTrace} per multi-round request. */
export interface Telemetry {
  /** Starts observing one inbound request; must not throw. */
  request(info: RequestInfo): RequestTrace;
  /** A task changed status. */
  taskStatus?(change: TaskChange): void;
  /** An inbound message no {@link RequestTrace} observed was handled; must not throw. */
  served?(message: ServedMessage): void;
  /** Legacy (2025-11-25) HTTP sessions opened (`+1`) or closed (`-1`) by the hosting's session table. */
  legacySessions?(delta: 1 | -1): void;
}
