/**
 * SERVER spans of the inbound messages no request trace observed (`initialize`, `tools/list`,
 * `tasks/get`, SDK-registered tools, notifications, …), and the spans of task status changes.
 */
import type { Attributes } from '@opentelemetry/api';
import { context as otelContext, SpanKind, SpanStatusCode, trace } from './api.js';

import type { ServedMessage, TaskChange } from '../telemetry/hooks.js';
import { referenceAttributes, rpcErrorAttributes, serverSpanName } from './reference.js';
import type { OtelShared } from './requestSpan.js';
import { safely } from './failures.js';
import { parentOf, spanContextFromMeta } from './traceparent.js';

/** Task statuses after which a task changes no more. */
const TERMINAL_TASK_STATUSES = new Set(['completed', 'failed', 'cancelled']);

/** Records `message` as a SERVER span from its arrival to now (and, for a request, its duration metric). */
export function recordServed(shared: OtelShared, message: ServedMessage): void {
  safely(() => {
    const parent = spanContextFromMeta(message.meta, shared.honorClientTraceFlags);
    const attributes: Attributes = {
      ...referenceAttributes(message),
      'mcp_resolve.era': message.era,
      ...shared.serverAttributes,
    };
    const span = shared.tracer.startSpan(
      serverSpanName(message),
      { kind: SpanKind.SERVER, attributes, startTime: message.startedAt },
      parent === undefined ? otelContext.active() : parentOf(parent),
    );
    const metric: Attributes = { 'mcp.method.name': message.method };
    if (message.method === 'tools/call' && message.name !== undefined) metric['gen_ai.tool.name'] = message.name;
    if (message.protocolVersion !== undefined) metric['mcp.protocol.version'] = message.protocolVersion;
    const { error } = message;
    if (error !== undefined) {
      span.setAttributes(error === 'tool_error' ? { 'error.type': error } : rpcErrorAttributes(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      metric['error.type'] = String(error);
    }
    span.end();
    if (message.requestId !== undefined)
      shared.instruments.operationDuration.record((Date.now() - message.startedAt) / 1000, metric);
  });
}

/**
 * Counts a task status change and, when the request that created the task was traced in this
 * process, records it as a child span `task <status>` of that request's SERVER span: a task's
 * life is one trace with the call that started it.
 */
export function recordTaskChange(shared: OtelShared, change: TaskChange): void {
  safely(() => {
    const attributes = { 'mcp_resolve.task.status': change.status };
    shared.instruments.taskStatus.add(1, attributes);
    const origin = shared.tasks.get(change.taskId);
    if (TERMINAL_TASK_STATUSES.has(change.status)) shared.tasks.delete(change.taskId);
    if (origin === undefined) return;
    shared.tracer
      .startSpan(`task ${change.status}`, { attributes }, trace.setSpanContext(otelContext.active(), origin))
      .end();
  });
}
