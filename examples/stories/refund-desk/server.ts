/**
 * The refund desk server.
 *
 *   npx tsx examples/stories/refund-desk/server.ts                  # stdio, both eras
 *   npx tsx examples/stories/refund-desk/server.ts --http --port N  # http://127.0.0.1:N/mcp, both eras
 *   ... --guided                                                    # the guided variant (guided.ts): SKU pick-list, re-asking
 *   ... --http --port N --redis redis://127.0.0.1:6379 [--instance ID]   # a fleet member (also REDIS_URL)
 *   ... --http --port N --sentinels h:p,h:p,h:p --master-name NAME     # through Redis Sentinel
 *   ... --otel console | file:PATH | otlp    # OpenTelemetry spans: JSON lines on stderr or in PATH, or OTLP/HTTP
 *
 * As a fleet member, the replay guard and the legacy sessions live in Redis, so any instance serves
 * any round of any call and any request of any session; give every instance the same
 * MCP_REQUEST_STATE_KEYS. Every response names its instance in the `Mcp-Resolve-Instance` header.
 */
import { parseArgs } from 'node:util';

import { serveHttp, serveStdio } from 'mcp-resolve/node';
import { otel } from 'mcp-resolve/otel';
import { connectRedisFleet } from 'mcp-resolve/redis';
import type { RedisFleet } from 'mcp-resolve/redis';

import { storyTracerProvider } from '../lib/spans.js';
import { createRefundDesk } from './desk.js';
import { createGuidedRefundDesk } from './guided.js';

const { values } = parseArgs({
  options: {
    http: { type: 'boolean', default: false },
    guided: { type: 'boolean', default: false },
    port: { type: 'string', default: '0' },
    redis: { type: 'string' },
    sentinels: { type: 'string' },
    'master-name': { type: 'string' },
    instance: { type: 'string' },
    otel: { type: 'string' },
  },
});

const redisUrl = values.redis ?? process.env.REDIS_URL;
const sentinels = values.sentinels?.split(',').filter((address) => address !== '');
const sentinel = sentinels && { sentinels, masterName: values['master-name'] ?? '' };
let fleet: RedisFleet | undefined;
if ((redisUrl !== undefined && redisUrl !== '') || sentinel !== undefined) {
  if (!values.http) {
    console.error('refund-desk: --redis needs --http (a fleet member serves HTTP).');
    process.exit(2);
  }
  try {
    fleet = await connectRedisFleet({
      ...(sentinel === undefined ? { url: redisUrl } : { sentinel }),
      ...(values.instance !== undefined && { instanceId: values.instance }),
      onerror: (error) => console.error(`refund-desk: ${error.message}`),
    });
  } catch (error) {
    console.error(`refund-desk: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

const tracing = values.otel === undefined ? undefined : storyTracerProvider(values.otel);
const instance = fleet?.sessions.instanceId;
const create = values.guided ? createGuidedRefundDesk : createRefundDesk;
const desk = create({
  ...(fleet && { requestState: { replayGuard: fleet.replayStore } }),
  ...(tracing && { telemetry: otel({ tracerProvider: tracing, ...(instance !== undefined && { instance }) }) }),
});
if (values.http) {
  const port = Number(values.port);
  const handle = await serveHttp(desk, { port, ...(fleet && { sessionFleet: fleet.sessions }) });
  // The client waits for this line (on stderr: stdout stays free for the stdio protocol).
  const where =
    sentinel === undefined ? (redisUrl ?? '') : `master ${sentinel.masterName} via ${sentinel.sentinels.join(',')}`;
  const member = fleet === undefined ? '' : ` (instance ${fleet.sessions.instanceId}, redis ${where})`;
  console.error(`refund-desk listening on ${handle.url.href}${member}`);
  const stop = () =>
    void handle.close().then(async () => (await tracing?.shutdown(), await fleet?.close(), process.exit(0)));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  serveStdio(desk);
  process.stdin.once('end', () => void tracing?.shutdown());
}
