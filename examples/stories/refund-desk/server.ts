/**
 * The refund desk's command-line entry, used by its clients, the tests, the fleet and chaos
 * scripts and the interop run. It only reads flags and hands over to one file per hosting choice:
 * [stdio.ts](stdio.ts), [http.ts](http.ts), [fleet.ts](fleet.ts) (Redis or Sentinel). Read those.
 *
 *   npx tsx examples/stories/refund-desk/server.ts                  # stdio, both eras
 *   npx tsx examples/stories/refund-desk/server.ts --http --port N  # http://127.0.0.1:N/mcp, both eras
 *   ... --guided                                                    # the guided variant (guided.ts): SKU pick-list, re-asking
 *   ... --http --port N --redis redis://127.0.0.1:6379 [--instance ID]   # a fleet member (also REDIS_URL)
 *   ... --http --port N --sentinels h:p,h:p,h:p --master-name NAME     # through Redis Sentinel
 *   ... --http --port N --cluster h:p,h:p,h:p                          # on a Redis Cluster
 *   ... --otel console | file:PATH | otlp    # OpenTelemetry spans: JSON lines on stderr or in PATH, or OTLP/HTTP
 */
import { parseArgs } from 'node:util';

import type { McpResolveServerOptions } from 'mcp-resolve';
import { otel } from 'mcp-resolve/otel';

import { storyTracerProvider } from '../lib/spans.js';
import { createRefundDesk } from './desk.js';
import { joinFleet, serveDeskInFleet } from './fleet.js';
import { createGuidedRefundDesk } from './guided.js';
import { serveDeskOnHttp } from './http.js';
import { serveDeskOnStdio } from './stdio.js';

const { values } = parseArgs({
  options: {
    http: { type: 'boolean', default: false },
    guided: { type: 'boolean', default: false },
    port: { type: 'string', default: '0' },
    redis: { type: 'string' },
    sentinels: { type: 'string' },
    'master-name': { type: 'string' },
    cluster: { type: 'string' },
    instance: { type: 'string' },
    otel: { type: 'string' },
  },
});

const redisUrl = values.redis ?? process.env.REDIS_URL;
const sentinels = values.sentinels?.split(',').filter((address) => address !== '');
const sentinel = sentinels && { sentinels, masterName: values['master-name'] ?? '' };
const clusterNodes = values.cluster?.split(',').filter((address) => address !== '');
const cluster = clusterNodes && { nodes: clusterNodes };
const inFleet = (redisUrl !== undefined && redisUrl !== '') || sentinel !== undefined || cluster !== undefined;
if (inFleet && !values.http) {
  console.error('refund-desk: --redis needs --http (a fleet member serves HTTP).');
  process.exit(2);
}

const tracing = values.otel === undefined ? undefined : storyTracerProvider(values.otel);
const variant = values.guided ? createGuidedRefundDesk : createRefundDesk;
/** Builds the desk with the telemetry the flags ask for (and `instance` on its spans). */
const create = (instance?: string) => (options: McpResolveServerOptions) =>
  variant({
    ...options,
    ...(tracing && { telemetry: otel({ tracerProvider: tracing, ...(instance !== undefined && { instance }) }) }),
  });
const shutdown = async () => void (await tracing?.shutdown());

if (inFleet) {
  const fleet = await joinFleet({
    ...(cluster !== undefined ? { cluster } : sentinel === undefined ? { url: redisUrl } : { sentinel }),
    ...(values.instance !== undefined && { instanceId: values.instance }),
  });
  const where =
    cluster !== undefined
      ? `cluster via ${cluster.nodes.join(',')}`
      : sentinel === undefined
        ? (redisUrl ?? '')
        : `master ${sentinel.masterName} via ${sentinel.sentinels.join(',')}`;
  await serveDeskInFleet(fleet, create(fleet.sessions.instanceId), Number(values.port), where, shutdown);
} else if (values.http) {
  await serveDeskOnHttp(create()({}), Number(values.port), { onClose: shutdown });
} else {
  serveDeskOnStdio(create()({}), () => void shutdown());
}
