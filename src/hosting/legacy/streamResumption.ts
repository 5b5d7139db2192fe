/**
 * A legacy (2025-11-25) request's response stream, resumable on any instance of a fleet. The
 * stream opens with an SSE event id naming the instance serving it and the requests it answers;
 * a client that loses the stream before the response (that instance stopped, a proxy dropped the
 * connection) resumes it, as the 2025-11-25 Streamable HTTP transport does, with a GET carrying
 * `Last-Event-ID`. Whichever instance that GET reaches answers each of those requests with an
 * error saying what happened, so the client's call ends now instead of at its request timeout.
 * Nothing of a stream is kept: a resumption never replays, it tells the client to send again.
 */
import type { JSONRPCErrorResponse, RequestId } from '@modelcontextprotocol/server';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

import { requestIds } from './requestIds.js';
import type { FleetBus } from './sessionFleet.js';

/** Prefix of the event id a resumable stream opens with: `mcpr-stream:<instance id>:<request ids as JSON>`, both URI-encoded. */
const STREAM_ID_PREFIX = 'mcpr-stream:';

/** The SSE `retry` a resumable stream sets: how long the client waits before resuming it, in ms. */
export const STREAM_RETRY_MS = 500;

/** The `data.reason` of the error a resumed stream answers each of its requests with. */
export const STREAM_LOST = 'mcp-resolve/stream-lost';

/** Most request ids one event id names (the SDK's own batch limit is far above what clients send). */
const MAX_RESUMED_REQUESTS = 100;

/** The first protocol revision whose clients accept an SSE event with empty data (a priming event). */
const FIRST_PRIMING_REVISION = '2025-11-25';

/** A stream a client resumed: the instance that served it and the requests it had not answered. */
export interface ResumedStream {
  readonly instance: string;
  readonly requests: readonly RequestId[];
}

/**
 * `response` (a POST's response on the legacy leg of instance `instanceId`) opening with the event
 * id that makes it resumable, when it is an event stream answering requests of `body` and the
 * client's revision (`protocolVersion`) reads a priming event; otherwise `response` itself.
 */
export function resumableStream(
  response: Response,
  instanceId: string,
  body: unknown,
  protocolVersion: string | null,
): Response {
  const requests = requestIds(body);
  const eventStream = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
  if (!eventStream || response.body === null || requests.length === 0) return response;
  if (protocolVersion === null || protocolVersion < FIRST_PRIMING_REVISION) return response;
  const id = `${STREAM_ID_PREFIX}${encodeURIComponent(instanceId)}:${encodeURIComponent(JSON.stringify(requests))}`;
  const priming = new TextEncoder().encode(`id: ${id}\nretry: ${STREAM_RETRY_MS}\ndata: \n\n`);
  const primed = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({ start: (controller) => controller.enqueue(priming) }),
  );
  return new Response(primed, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The stream a `Last-Event-ID` names, or `undefined` when it names none of ours. */
export function resumedStream(lastEventId: string | null): ResumedStream | undefined {
  if (lastEventId?.startsWith(STREAM_ID_PREFIX) !== true) return undefined;
  const end = lastEventId.lastIndexOf(':');
  if (end <= STREAM_ID_PREFIX.length) return undefined;
  let instance: string;
  let requests: unknown;
  try {
    instance = decodeURIComponent(lastEventId.slice(STREAM_ID_PREFIX.length, end));
    requests = JSON.parse(decodeURIComponent(lastEventId.slice(end + 1)));
  } catch {
    return undefined;
  }
  if (!Array.isArray(requests) || requests.length === 0 || requests.length > MAX_RESUMED_REQUESTS) return undefined;
  const ids = requests.filter((id): id is RequestId => typeof id === 'string' || typeof id === 'number');
  return ids.length === requests.length ? { instance, requests: ids } : undefined;
}

/**
 * Answers a resumed stream: an event stream carrying, for each request it names, an error saying
 * whether the instance that served it stopped or only the stream was lost, then closing.
 */
export async function answerResumedStream(fleet: FleetBus, resumed: ResumedStream): Promise<Response> {
  const { instance } = resumed;
  const message = await fleet.listening(instance).then(
    (listening) =>
      listening
        ? `The response stream of this request was lost before its response (instance ${instance} served it). This server keeps no copy of it: send the request again.`
        : `Instance ${instance}, which was serving this request, stopped before answering it. Send the request again: another instance will serve it.`,
    (error: unknown) =>
      `The response stream of this request was lost before its response (instance ${instance} served it; whether it still runs could not be checked: ${error instanceof Error ? error.message : String(error)}). Send the request again.`,
  );
  const events = resumed.requests.map((id) => {
    const answer: JSONRPCErrorResponse = {
      jsonrpc: '2.0',
      id,
      error: { code: ProtocolErrorCode.InternalError, message, data: { reason: STREAM_LOST, instance } },
    };
    return `event: message\ndata: ${JSON.stringify(answer)}\n\n`;
  });
  return new Response(events.join(''), {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform' },
  });
}
