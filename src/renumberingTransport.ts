/** A modern transport that renumbers its clients' requests on one connection, and how its ids map back to theirs. */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import { PerRequestHTTPServerTransport } from '@modelcontextprotocol/server';

/**
 * A transport carrying many clients' requests to one SDK server instance, each under an id of its
 * own on the connection (clients' ids collide there): the modern lane's `ExchangeMux`. The
 * library's server recognises it by this class when it connects, so its handlers and its telemetry
 * see the clients' ids.
 */
export abstract class RenumberingTransport extends PerRequestHTTPServerTransport {
  /** The client's id of the request the instance knows as `id` (itself for any other id). */
  abstract clientIdOf(id: RequestId): RequestId;
  /** Whether the transport itself sent `message` to the instance (a cancellation for a client that left), not a client. */
  abstract isOwnMessage(message: JSONRPCMessage): boolean;
}
