/**
 * The modern lane: modern (2026-07-28) requests served by one long-lived SDK server instance over
 * an {@link ExchangeMux}, instead of an instance and a transport per request. Built on the SDK's
 * public API (a `McpServer` connected to a transport, its `toolInputSchemaJson` and
 * `resolveScopeChallenge`) and one SDK seam, the timing of `Server.onerror`, which
 * `ExchangeMux.bounceIfDelivering` relies on. Its instance comes ready for modern requests
 * (`InstanceReuse.create`).
 *
 * The lane serves exactly the requests `laneRequest` takes (the one rule, documented there);
 * every other one is left to the SDK's hosting (`serve` answers `undefined`). Only a server whose
 * instances may serve one request after another (`InstanceReuse`) gets a lane; the modern leg
 * replaces it when a registration changes what an instance is built from.
 */
import type { McpServer } from '@modelcontextprotocol/server';

import type { HostedPost, Reply } from '../exchange.js';
import { handedRequest } from '../exchange.js';
import { ExchangeMux } from './exchangeMux.js';
import { MODERN_REVISION } from '../../protocol.js';
import type { LaneInstance } from './laneRequest.js';
import { laneRequest } from './laneRequest.js';

/** See the module comment. */
export interface ModernLane {
  /**
   * Serves `post`, or answers `undefined` when the SDK's hosting must answer it. A client that
   * leaves (`post.clientLeft`, else its request's signal) gets its handler's signal aborted and
   * the SDK's 499 (nobody reads it).
   */
  serve(post: HostedPost): Promise<Reply | undefined>;
  /** Closes the instance: requests in flight end unanswered (499), later ones are left to the SDK's hosting. */
  close(): Promise<void>;
  /** Closes the instance once its calls in flight have ended (at once when none is); later requests are left to the SDK's hosting. */
  closeWhenIdle(): Promise<void>;
}

/** An instance connected to its transport. */
interface Connected extends LaneInstance {
  readonly mux: ExchangeMux;
}

/** A lane over one instance of `factory` (made ready for modern requests), built with the first request it is offered. */
export function createModernLane(factory: () => Promise<McpServer>): ModernLane {
  /** The instance, connected on first need; `undefined` inside when there is none to serve on (the SDK's hosting serves then). */
  let connected: Promise<Connected | undefined> | undefined;
  let closed = false;

  const connect = async (): Promise<Connected> => {
    const instance = await factory();
    const mux = new ExchangeMux(MODERN_REVISION);
    await instance.connect(mux);
    // The instance is the lane's own, and so is its error callback: a request the instance cannot
    // read as one (a `_meta` its schema refuses), reported while the mux delivers it (an SDK seam:
    // reported synchronously), goes back to the SDK's hosting.
    instance.server.onerror = () => void mux.bounceIfDelivering();
    return { instance, mux, mirrors: new Map() };
  };

  return {
    async serve(post) {
      if (closed) return undefined;
      const lane = await (connected ??= connect().catch(() => undefined));
      if (lane === undefined) return undefined;
      const taken = laneRequest(lane, post.request.headers, post.parsedBody, post.authInfo);
      const message = taken instanceof Promise ? await taken : taken;
      if (message === undefined) return undefined;
      const clientLeft = post.clientLeft ?? post.request.signal;
      return lane.mux.serve(message, { request: handedRequest(post, false), authInfo: post.authInfo, clientLeft });
    },
    async close() {
      closed = true;
      await (await connected)?.mux.close();
    },
    async closeWhenIdle() {
      closed = true;
      await (await connected)?.mux.closeWhenIdle();
    },
  };
}
