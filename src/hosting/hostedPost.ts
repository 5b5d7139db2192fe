/** A POST to the MCP path as the dual-era hosting hands it on, and the request its handlers see. */
import type { AuthInfo } from '@modelcontextprotocol/server';

import type { RequestClient } from '../channels/requestClient.js';
import { ClientRequest } from '../channels/requestClient.js';

/** A POST the hosting has read: the request, its parsed body, who sent it and how it learns the client left. */
export interface HostedPost {
  readonly request: Request;
  readonly parsedBody: unknown;
  readonly authInfo: AuthInfo | undefined;
  /**
   * Aborts when the client leaves, when the host hands that over apart from a body-less `request`
   * (see `ServeOptions`); `undefined`: `request.signal` says it.
   */
  readonly clientLeft: AbortSignal | undefined;
  /** Whom an anonymous request counts against, when its host could say. */
  readonly client: RequestClient | undefined;
}

/**
 * The request `post`'s handlers see (`ctx.http.req`): `post.request` itself when there is nothing
 * to add, else a {@link ClientRequest} carrying `post.client` and following the client's leaving:
 * `clientLeft` when `follow` (a handler whose hosting watches only the request's signal), nothing
 * when not (the modern lane watches `clientLeft` itself), the request's own signal when the host
 * gave no `clientLeft`.
 */
export function handedRequest(post: HostedPost, follow: boolean): Request {
  const { request, clientLeft, client } = post;
  if (client === undefined && (clientLeft === undefined || !follow)) return request;
  return new ClientRequest(
    request,
    client,
    clientLeft === undefined ? request.signal : follow ? clientLeft : undefined,
  );
}
