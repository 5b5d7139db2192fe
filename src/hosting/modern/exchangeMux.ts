/**
 * One long-lived transport carrying many HTTP exchanges to one SDK server instance, for modern
 * (2026-07-28) requests: the SDK's own hosting connects a fresh instance to a fresh single-exchange
 * transport for every request; this connects one instance once and hands it each request as a
 * message on the same connection, the way a stdio connection carries concurrent requests.
 *
 * It is the SDK's `PerRequestHTTPServerTransport` by class (through {@link RenumberingTransport}),
 * so connecting binds the instance to the modern revision exactly as the SDK's hosting does, but it
 * serves any number of exchanges:
 *
 * - each request gets an id of its own on the connection (clients' ids collide), and its reply
 *   carries the client's id back; {@link ExchangeMux.clientIdOf} maps one to the other (the
 *   library's server records that when it connects, so handlers and telemetry see the client's id);
 * - the request's `Request` and `authInfo` ride in the message's extra info, so the handler's
 *   context and authentication are the request's own;
 * - a client that leaves (its `clientLeft` signal aborts) is a `notifications/cancelled` for its id
 *   alone: the handler's `ctx.mcpReq.signal` aborts, the instance stays up;
 * - the reply is JSON on 200 (400 for `-32021`, as the SDK's transport), or an event stream once
 *   the handler sends a related notification before its result, framed as the SDK frames it.
 *
 * An answer the instance gives while the message is still being delivered (a rejection before any
 * handler runs: method not found, an invalid envelope, an era mismatch) or an error it reports then
 * (a message it could not read) is not served here: the exchange is handed back and the SDK's own
 * hosting answers the request, so such answers stay the SDK's, word for word.
 */
import type {
  AuthInfo,
  JSONRPCMessage,
  JSONRPCRequest,
  MessageClassification,
  RequestId,
  TransportSendOptions,
} from '@modelcontextprotocol/server';

import { CLIENT_LEFT_REASON } from '../../clientLeft.js';
import { RenumberingTransport } from '../../renumberingTransport.js';
import { JsonReply } from '../exchange.js';

/** The SDK's code for a missing client capability, the one handler error its transport answers with 400. */
const MISSING_CLIENT_CAPABILITY = -32021;
/** What the SDK's transport waits between keep-alive comments on an event stream. */
const KEEP_ALIVE_MS = 15_000;
const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
} as const;

/** One request's exchange: its client id, and how its reply goes out. */
class Exchange {
  readonly reply: Promise<JsonReply | Response | undefined>;
  settle!: (reply: JsonReply | Response | undefined) => void;
  /** The event stream, once the handler has sent something before its result. */
  stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  keepAlive: ReturnType<typeof setInterval> | undefined;
  done = false;

  constructor(readonly clientId: RequestId) {
    this.reply = new Promise((resolve) => (this.settle = resolve));
  }
}

const encoder = new TextEncoder();

/** The multiplexing transport; connect one instance to it, then {@link ExchangeMux.serve} each request. */
export class ExchangeMux extends RenumberingTransport {
  readonly #classification: MessageClassification;
  readonly #exchanges = new Map<number, Exchange>();
  #nextId = 0;
  /** The exchange whose message is being delivered, while it is (see the module comment). */
  #delivering: { exchange: Exchange; bounced: boolean } | undefined;
  #closed = false;
  /** Set by {@link ExchangeMux.closeWhenIdle}: the last exchange to end closes the transport, then this is called. */
  #retired: (() => void) | undefined;
  /** The cancellations this transport sent the instance for clients that left. */
  readonly #own = new WeakSet<JSONRPCMessage>();

  constructor(revision: string) {
    const classification: MessageClassification = { era: 'modern', revision };
    super({ classification });
    this.#classification = classification;
  }

  override async start(): Promise<void> {}

  /** Exchanges in flight. */
  get size(): number {
    return this.#exchanges.size;
  }

  override clientIdOf(id: RequestId): RequestId {
    return (typeof id === 'number' ? this.#exchanges.get(id)?.clientId : undefined) ?? id;
  }

  override isOwnMessage(message: JSONRPCMessage): boolean {
    return this.#own.has(message);
  }

  /** Whether the instance's error report `error` was about a message being delivered now (it is then handed back). */
  bounceIfDelivering(): boolean {
    if (this.#delivering === undefined) return false;
    this.#delivering.bounced = true;
    return true;
  }

  /**
   * Serves one request: resolves to its reply (499 when the client left or the lane closed first),
   * or to `undefined` when the instance answered it while it was being delivered (the SDK's hosting
   * answers it then). `message` itself is left as it is: the instance gets a copy with its own id.
   */
  serve(
    message: JSONRPCRequest,
    extra: { readonly request: Request; readonly authInfo: AuthInfo | undefined; readonly clientLeft: AbortSignal },
  ): Promise<JsonReply | Response | undefined> {
    if (this.#closed || this.onmessage === undefined) return Promise.resolve(undefined);
    const clientId = message.id;
    const id = ++this.#nextId;
    const exchange = new Exchange(clientId);
    this.#exchanges.set(id, exchange);
    const delivering = { exchange, bounced: false };
    this.#delivering = delivering;
    const renumbered: JSONRPCRequest = { ...message, id };
    try {
      this.onmessage(
        renumbered,
        extra.authInfo === undefined
          ? { classification: this.#classification, request: extra.request }
          : { classification: this.#classification, request: extra.request, authInfo: extra.authInfo },
      );
    } catch {
      delivering.bounced = true;
    } finally {
      this.#delivering = undefined;
    }
    if (delivering.bounced) {
      this.#finish(id, exchange, undefined);
      return Promise.resolve(undefined);
    }
    const signal = extra.clientLeft;
    if (signal.aborted) this.#leave(id, exchange);
    else signal.addEventListener('abort', () => this.#leave(id, exchange), { once: true });
    return exchange.reply;
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const isReply = 'id' in message && ('result' in message || 'error' in message);
    const id = isReply ? message.id : options?.relatedRequestId;
    const exchange = typeof id === 'number' ? this.#exchanges.get(id) : undefined;
    if (exchange === undefined || id === undefined) return;
    if (this.#delivering?.exchange === exchange) {
      this.#delivering.bounced = true;
      return;
    }
    if (!isReply) return this.#event(exchange, message);
    // A copy with the client's id: the message stays the instance's as it was sent.
    const answer = { ...message, id: exchange.clientId };
    if (exchange.stream !== undefined) {
      this.#frame(exchange, answer);
      this.#finish(id as number, exchange, undefined);
      return;
    }
    const status = 'error' in answer && answer.error.code === MISSING_CLIENT_CAPABILITY ? 400 : 200;
    this.#finish(id as number, exchange, new JsonReply(status, JSON.stringify(answer)));
  }

  /** Closes once no exchange is in flight (at once when none is), letting the calls it carries end as they would. */
  closeWhenIdle(): Promise<void> {
    if (this.#closed || this.#exchanges.size === 0) return this.close();
    return new Promise((resolve) => (this.#retired = resolve));
  }

  override async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const [id, exchange] of this.#exchanges) this.#finish(id, exchange, unanswered());
    this.onclose?.();
    this.#retired?.();
  }

  /** A notification the handler sent before its result: the reply becomes an event stream. */
  #event(exchange: Exchange, message: JSONRPCMessage): void {
    if (exchange.done) return;
    if (exchange.stream === undefined) {
      const body = new ReadableStream<Uint8Array>({ start: (controller) => void (exchange.stream = controller) });
      exchange.keepAlive = setInterval(() => enqueue(exchange, ': keepalive\n\n'), KEEP_ALIVE_MS);
      exchange.keepAlive.unref?.();
      exchange.settle(new Response(body, { status: 200, headers: EVENT_STREAM_HEADERS }));
    }
    this.#frame(exchange, message);
  }

  #frame(exchange: Exchange, message: JSONRPCMessage): void {
    enqueue(exchange, `event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** The client left: the handler is cancelled (its signal aborts) and the exchange ends unanswered. */
  #leave(id: number, exchange: Exchange): void {
    if (exchange.done) return;
    this.#finish(id, exchange, unanswered());
    const cancelled: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: CLIENT_LEFT_REASON },
    };
    this.#own.add(cancelled);
    this.onmessage?.(cancelled, { classification: this.#classification });
  }

  #finish(id: number, exchange: Exchange, reply: JsonReply | Response | undefined): void {
    if (exchange.done) return;
    exchange.done = true;
    this.#exchanges.delete(id);
    if (exchange.keepAlive !== undefined) clearInterval(exchange.keepAlive);
    if (exchange.stream !== undefined) {
      try {
        exchange.stream.close();
      } catch {
        // The client cancelled the stream already.
      }
    }
    exchange.settle(reply);
    if (this.#retired !== undefined && this.#exchanges.size === 0) void this.close();
  }
}

/** The reply of an exchange that ended unanswered (the client left, or the lane closed), as the SDK's hosting gives it. */
const unanswered = (): Response => new Response(null, { status: 499 });

/** Writes `frame` to the exchange's event stream; a stream the client cancelled takes nothing. */
function enqueue(exchange: Exchange, frame: string): void {
  try {
    exchange.stream?.enqueue(encoder.encode(frame));
  } catch {
    // The client cancelled the stream: the exchange ends when its request's signal aborts.
  }
}
