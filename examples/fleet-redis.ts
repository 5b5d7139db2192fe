/**
 * A fleet on Redis: several instances behind a load balancer, any of which serves any round of any
 * call and any request of any 2025-11-25 session. Redis holds what they share: the replay guard
 * (a sealed state is used once, fleet-wide) and the legacy sessions (answers are relayed to the
 * instance that asked).
 *
 *   MCP_REQUEST_STATE_KEYS=<64 hex chars> REDIS_URL=redis://127.0.0.1:6379 PORT=3001 npx tsx examples/fleet-redis.ts
 *   ... the same with PORT=3002, then balance http://127.0.0.1:3001/mcp and :3002/mcp from this
 *   host, setting X-Real-IP (nginx: proxy_set_header X-Real-IP $remote_addr;)
 *
 * Every instance needs the same MCP_REQUEST_STATE_KEYS (a round sealed by one is opened by another),
 * the same code and the same data its resolvers read.
 */
import { serveHttp } from 'mcp-resolve/node';
import { connectRedisFleet } from 'mcp-resolve/redis';

import { createHotel } from './tool.js';

const fleet = await connectRedisFleet({
  url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  onerror: (error) => console.error(`hotel: ${error.message}`),
});

// The replay guard and the attempt counters go to the server; the session fleet to the HTTP host.
const hotel = createHotel({
  requestState: { replayStore: fleet.replayStore },
  answerAttempts: { store: fleet.attempts },
});
const handle = await serveHttp(hotel, {
  port: Number(process.env.PORT ?? 3000),
  sessionFleet: fleet.sessions,
  // Behind a balancer on this host that sets `X-Real-IP $remote_addr`: each legacy client counts
  // against its own address for maxLegacySessionsPerClient, not all against the balancer's.
  clientAddress: (request, socketAddress) =>
    socketAddress === '127.0.0.1' ? request.headers.get('x-real-ip') : socketAddress,
});
// Each response names its instance in the `Mcp-Resolve-Instance` header.
console.error(`hotel listening on ${handle.url.href} (instance ${fleet.sessions.instanceId})`);

// Close HTTP first (sessions hand over), then Redis.
const stop = () => void handle.close().then(async () => (await fleet.close(), process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
