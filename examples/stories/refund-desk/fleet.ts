/**
 * The refund desk as a member of a fleet on Redis: the replay guard and the legacy sessions live
 * in Redis, so any instance serves any round of any call and any request of any session. Give every
 * instance the same MCP_REQUEST_STATE_KEYS. Every response names its instance in the
 * `Mcp-Resolve-Instance` header. `server.ts --http --redis URL` (or `--sentinels …`) runs the same.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 PORT=3001 npx tsx examples/stories/refund-desk/fleet.ts
 */
import { fileURLToPath } from 'node:url';

import type { McpResolveServerOptions, McpResolveServer } from 'mcp-resolve';
import type { RedisFleet, RedisFleetOptions } from 'mcp-resolve/redis';
import { connectRedisFleet } from 'mcp-resolve/redis';

import { createRefundDesk } from './desk.js';
import { serveDeskOnHttp } from './http.js';

/** Connects to Redis as `target` says; exits the process (code 1) with one line when it cannot. */
export async function joinFleet(target: RedisFleetOptions): Promise<RedisFleet> {
  try {
    return await connectRedisFleet({ ...target, onerror: (error) => console.error(`refund-desk: ${error.message}`) });
  } catch (error) {
    console.error(`refund-desk: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

/** The address the balancer connects to the instances from (nginx on this host in `npm run fleet`). */
const BALANCER = '127.0.0.1';

/**
 * Whom a legacy session counts against for `maxLegacySessionsPerClient`: behind the balancer, the
 * client's address it sets (`proxy_set_header X-Real-IP $remote_addr;`, which replaces whatever the
 * client sent); from anywhere else, the socket's, so nobody picks their own bucket by sending the header.
 */
export const clientBehindBalancer = (request: Request, socketAddress: string | undefined): string | null | undefined =>
  socketAddress === BALANCER ? request.headers.get('x-real-ip') : socketAddress;

/** Serves the desk `create` builds as a fleet member on `port`; `where` names the Redis in the listening line. */
export async function serveDeskInFleet(
  fleet: RedisFleet,
  create: (options: McpResolveServerOptions) => McpResolveServer,
  port: number,
  where: string,
  onClose?: () => Promise<void>,
): Promise<void> {
  // The replay guard and the attempt counters go to the server (a sealed state is used once, a
  // question's attempts are counted, fleet-wide); the sessions to the host.
  const desk = create({ requestState: { replayStore: fleet.replayStore }, answerAttempts: { store: fleet.attempts } });
  await serveDeskOnHttp(desk, port, {
    http: { sessionFleet: fleet.sessions, clientAddress: clientBehindBalancer },
    suffix: ` (instance ${fleet.sessions.instanceId}, redis ${where})`,
    onClose: async () => (await onClose?.(), await fleet.close()),
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  await serveDeskInFleet(await joinFleet({ url }), createRefundDesk, Number(process.env.PORT ?? 0), url);
}
