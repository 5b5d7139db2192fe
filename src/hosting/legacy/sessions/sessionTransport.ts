/**
 * The transport of one legacy session: the SDK's Streamable HTTP transport, plus what a fleet
 * needs from it (push ids that name the instance waiting for the answer, messages for a GET stream
 * held by another instance) and a fast failure for a push that has no way to reach the client.
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import {
  WebStandardStreamableHTTPServerTransport,
  isJSONRPCRequest,
  isJSONRPCResponse,
} from '@modelcontextprotocol/server';

/** Prefix of the JSON-RPC ids of pushes: `mcpr:<instance id>:<random>` names the instance that waits for the answer (pushIds.ts). */
export const WIRE_ID_PREFIX = 'mcpr:';

/** How an instance gives its pushes ids and takes part in a fleet, as its sessions' transports see it. */
export interface Relay {
  /**
   * Rewrites an outgoing message: push ids become random (and, in a fleet, recorded in the shared
   * store), cancellations follow them; `call` is the client request a push is related to.
   */
  outbound(transport: SessionTransport, message: JSONRPCMessage, call: RequestId | undefined): Promise<JSONRPCMessage>;
  /** Sends a message meant for the GET stream to the instance holding it; `false` when no other instance does. */
  toStreamHolder(sessionId: string | undefined, message: JSONRPCMessage): Promise<boolean>;
}

/**
 * A session transport that fails a server-to-client request fast when it has no way to reach the
 * client: not related to an in-flight call, and no standalone GET stream open (here or, in a
 * fleet, on another instance). The SDK transport would drop such a request silently and the caller
 * would wait for its timeout.
 */
export class SessionTransport extends WebStandardStreamableHTTPServerTransport {
  /** Open standalone GET streams of this session on this instance (0 or 1). */
  standaloneStreams = 0;
  /** Pushes waiting for the client's answer by wire id: the local id, and the client request it is related to. */
  readonly pushes = new Map<string, { readonly localId: RequestId; readonly call: RequestId | undefined }>();
  /** Who waits for the response to a client request (see {@link SessionTransport.responded}). */
  private readonly responseWaiters = new Map<RequestId, Array<() => void>>();

  constructor(
    options: ConstructorParameters<typeof WebStandardStreamableHTTPServerTransport>[0],
    private readonly relay: Relay,
  ) {
    super(options);
  }

  override async send(message: JSONRPCMessage, options?: { relatedRequestId?: RequestId }): Promise<void> {
    const outgoing = await this.relay.outbound(this, message, options?.relatedRequestId);
    if (options?.relatedRequestId === undefined && !isJSONRPCResponse(outgoing) && this.standaloneStreams === 0) {
      if (await this.relay.toStreamHolder(this.sessionId, outgoing)) return;
      if (isJSONRPCRequest(outgoing)) {
        throw new Error(
          `Cannot send '${outgoing.method}' to the client: it is not related to an in-flight request and the ` +
            `session has no open GET stream. Pass { relatedRequestId: ctx.mcpReq.id } so it rides the call's response stream.`,
        );
      }
    }
    await super.send(outgoing, options);
    if (isJSONRPCResponse(outgoing) && outgoing.id !== undefined) this.settleWaiters(outgoing.id);
  }

  /** Resolves once the response to client request `id` has been written, or the transport closed. */
  responded(id: RequestId): Promise<void> {
    return new Promise((settle) => this.responseWaiters.set(id, [...(this.responseWaiters.get(id) ?? []), settle]));
  }

  override async close(): Promise<void> {
    try {
      await super.close();
    } finally {
      for (const id of [...this.responseWaiters.keys()]) this.settleWaiters(id);
    }
  }

  private settleWaiters(id: RequestId): void {
    const waiters = this.responseWaiters.get(id);
    this.responseWaiters.delete(id);
    for (const settle of waiters ?? []) settle();
  }

  /** Writes a message relayed from another instance to this session's GET stream, as it is. */
  deliver(message: JSONRPCMessage): Promise<void> {
    return super.send(message);
  }
}

/** The instance a push id names, or `undefined` when `id` is not a fleet push id. */
export function pushOwner(id: unknown): string | undefined {
  if (typeof id !== 'string' || !id.startsWith(WIRE_ID_PREFIX)) return undefined;
  const end = id.lastIndexOf(':');
  return end > WIRE_ID_PREFIX.length ? id.slice(WIRE_ID_PREFIX.length, end) : undefined;
}
