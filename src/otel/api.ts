/**
 * `@opentelemetry/api`, the optional peer this entry needs, loaded once here (the entry's other
 * modules take its values from this one), so that importing `mcp-resolve/otel` without it fails
 * with the install line instead of Node's `Cannot find package '@opentelemetry/api'`.
 */
import type * as Api from '@opentelemetry/api';

import { loadPeer } from '../peer.js';

const api: typeof Api = await loadPeer('@opentelemetry/api', 'mcp-resolve/otel', () => import('@opentelemetry/api'));

export const {
  context,
  createTraceState,
  isSpanContextValid,
  metrics,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} = api;
