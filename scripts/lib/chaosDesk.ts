/**
 * A refund-desk instance for `npm run chaos`: the story's desk, reached through Redis Sentinel or
 * on a Redis Cluster, plus one task tool (`audit_order`, a body that takes a while) whose tasks live in Redis.
 *
 *   tsx scripts/lib/chaosDesk.ts --http --port N --instance ID --sentinels h:p,... --master-name NAME
 *   tsx scripts/lib/chaosDesk.ts --http --port N --instance ID --cluster h:p,...
 */
import { parseArgs } from 'node:util';

import { z } from 'zod';

import { serveHttp } from '../../src/node/index.js';
import { connectRedisFleet, createRedisTaskStore } from '../../src/redis/index.js';
import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { clientBehindBalancer } from '../../examples/stories/refund-desk/fleet.js';
import { AUDIT_BODY_MS, CHAOS_LEASE_MS } from './chaosSettings.js';

const { values } = parseArgs({
  options: {
    http: { type: 'boolean', default: false },
    port: { type: 'string', default: '0' },
    instance: { type: 'string', default: 'desk' },
    sentinels: { type: 'string', default: '' },
    'master-name': { type: 'string', default: '' },
    cluster: { type: 'string', default: '' },
  },
});

let fleet;
try {
  fleet = await connectRedisFleet({
    ...(values.cluster === ''
      ? { sentinel: { sentinels: values.sentinels.split(','), masterName: values['master-name'] } }
      : { cluster: { nodes: values.cluster.split(',') } }),
    instanceId: values.instance,
    onerror: (error) => console.error(`chaos-desk ${values.instance}: ${error.message}`),
  });
} catch (error) {
  console.error(`chaos-desk: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const desk = createRefundDesk({
  requestState: { replayStore: fleet.replayStore },
  tasks: {
    store: createRedisTaskStore(fleet.redis),
    leaseMs: CHAOS_LEASE_MS,
    pollIntervalMs: 200,
    onerror: (error) => console.error(`chaos-desk ${values.instance}: ${error.message}`),
  },
}).tool('audit_order', { input: { order_id: z.string() }, task: 'required' }, async ({ order_id }) => {
  await new Promise((wake) => setTimeout(wake, AUDIT_BODY_MS));
  return `Audited ${order_id} on ${values.instance}.`;
});
const handle = await serveHttp(desk, {
  port: Number(values.port),
  sessionFleet: fleet.sessions,
  clientAddress: clientBehindBalancer,
});
console.error(`chaos-desk listening on ${handle.url.href} (instance ${values.instance})`);
const stop = () => void handle.close().then(async () => (await fleet.close(), process.exit(0)));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
