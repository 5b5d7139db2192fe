/**
 * A legacy (2025-11-25) request's response stream, resumable on any instance of a fleet. The
 * stream opens with an SSE event id naming the instance serving it and the requests it answers,
 * signed (HMAC-SHA256) with its session's stream key; a client that loses the stream before the
 * response (that instance stopped, a proxy dropped the connection) resumes it, as the 2025-11-25
 * Streamable HTTP transport does, with a GET carrying `Last-Event-ID` on its session. Whichever
 * instance that GET reaches checks the session is the caller's and the event id one of that
 * session's streams opened with, then answers each of those requests with an error saying what
 * happened, so the client's call ends now instead of at its request timeout. Nothing of a stream
 * is kept: a resumption never replays, it tells the client to send again.
 */
import type { JSONRPCErrorResponse, RequestId } from '@modelcontextprotocol/server';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';

import { equalBytes, fromBase64urlStrict, fromHex, toBase64url, toHex, utf8 } from '../../state/bytes.js';
import { requestIds } from './sessions/requestIds.js';
import type { FleetBus } from './sessionFleet.js';
import { maskBackendFailure } from './fleet/sessionStoreError.js';

/**
 * Prefix of the event id a resumable stream opens with:
 * `mcpr-stream:<instance id>:<request ids as JSON>:<signature>`, the first two URI-encoded, the
 * signature the base64url HMAC-SHA256, under the session's stream key, of the session id and the rest.
 */
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

/** The session a stream belongs to, as its event ids are signed: its id and its stream key (hex; `undefined`: none). */
export interface StreamSession {
  readonly sessionId: string;
  readonly streamKey: string | undefined;
}

/** A fresh stream key for a new session: 256 random bits as 64 hex digits. */
export function newStreamKey(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * The signature of an event id (without its signature) of a stream of `session`: HMAC-SHA256,
 * under the session's stream key, of the session id and `unsigned`; `undefined` when the session has no key.
 */
function signatureOf(session: StreamSession, unsigned: string): Uint8Array | undefined {
  const key = session.streamKey === undefined ? undefined : fromHex(session.streamKey);
  return key && hmac(sha256, key, utf8(`${session.sessionId}\n${unsigned}`));
}

/**
 * `response` (a POST's response on session `session` of the legacy leg of instance `instanceId`)
 * opening with the signed event id that makes it resumable, when it is an event stream answering
 * requests of `body`, the client's revision (`protocolVersion`) reads a priming event and the
 * session has a stream key; otherwise `response` itself.
 */
export function resumableStream(
  response: Response,
  instanceId: string,
  session: StreamSession,
  body: unknown,
  protocolVersion: string | null,
): Response {
  const requests = requestIds(body);
  const eventStream = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
  if (!eventStream || response.body === null || requests.length === 0) return response;
  if (protocolVersion === null || protocolVersion < FIRST_PRIMING_REVISION) return response;
  const unsigned = `${STREAM_ID_PREFIX}${encodeURIComponent(instanceId)}:${encodeURIComponent(JSON.stringify(requests))}`;
  const signature = signatureOf(session, unsigned);
  if (signature === undefined) return response;
  const id = `${unsigned}:${toBase64url(signature)}`;
  const priming = new TextEncoder().encode(`id: ${id}\nretry: ${STREAM_RETRY_MS}\ndata: \n\n`);
  const primed = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({ start: (controller) => controller.enqueue(priming) }),
  );
  return new Response(primed, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Whether `lastEventId` is one of the event ids a resumable stream opens with (signed or not, valid or not). */
export function isStreamEventId(lastEventId: string | null): lastEventId is string {
  return lastEventId?.startsWith(STREAM_ID_PREFIX) === true;
}

/**
 * The stream a `Last-Event-ID` names, when it is an event id a stream of `session` opened with
 * (its signature checked under the session's stream key); otherwise `undefined`.
 */
export function resumedStream(lastEventId: string | null, session: StreamSession): ResumedStream | undefined {
  if (!isStreamEventId(lastEventId)) return undefined;
  const signatureAt = lastEventId.lastIndexOf(':');
  const unsigned = lastEventId.slice(0, signatureAt);
  const signature = fromBase64urlStrict(lastEventId.slice(signatureAt + 1));
  const expected = signatureOf(session, unsigned);
  if (signature === undefined || expected === undefined || !equalBytes(signature, expected)) return undefined;
  return parseStreamId(unsigned);
}

/** The instance and requests of an unsigned stream event id, or `undefined` when it is malformed. */
function parseStreamId(unsigned: string): ResumedStream | undefined {
  const end = unsigned.lastIndexOf(':');
  if (end <= STREAM_ID_PREFIX.length) return undefined;
  let instance: string;
  let requests: unknown;
  try {
    instance = decodeURIComponent(unsigned.slice(STREAM_ID_PREFIX.length, end));
    requests = JSON.parse(decodeURIComponent(unsigned.slice(end + 1)));
  } catch {
    return undefined;
  }
  if (!Array.isArray(requests) || requests.length === 0 || requests.length > MAX_RESUMED_REQUESTS) return undefined;
  const ids = requests.filter((id): id is RequestId => typeof id === 'string' || typeof id === 'number');
  return ids.length === requests.length ? { instance, requests: ids } : undefined;
}

/**
 * Answers a resumed stream: an event stream carrying, for each request it names, an error saying
 * whether the instance that served it stopped or only the stream was lost, then closing. When the
 * fleet cannot say, the error is the masked one, its cause reported under its ref.
 */
export async function answerResumedStream(
  fleet: FleetBus,
  resumed: ResumedStream,
  report: (error: unknown) => void,
): Promise<Response> {
  const { instance } = resumed;
  const message = await fleet.listening(instance).then(
    (listening) =>
      listening
        ? `The response stream of this request was lost before its response (instance ${instance} served it). This server keeps no copy of it: send the request again.`
        : `Instance ${instance}, which was serving this request, stopped before answering it. Send the request again: another instance will serve it.`,
    (error: unknown) => maskBackendFailure('check the instance of a resumed stream', error, report),
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
