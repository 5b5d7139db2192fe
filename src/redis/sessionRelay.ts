/**
 * The relay half of the Redis session fleet: pub/sub, a channel per instance plus one for every
 * instance. Pub/sub fits: a relay is only useful to a live instance, so nothing needs to be kept
 * for later, and an answer's bytes pass through Redis without being stored. On a Redis Cluster the
 * relay uses sharded pub/sub (`SPUBLISH`, `SSUBSCRIBE`): each channel lives on the primary of its
 * slot, and the cluster client moves a subscription to the new primary after a failover.
 */
import type { FleetMessage, LegacySessionFleet } from '../hosting/legacy/sessionFleet.js';
import type { RedisConnection } from './connection.js';
import { isClusterConnection, isSentinelConnection } from './connection.js';
import { clusterNodeFor } from './keys.js';

/** The relay methods of a {@link LegacySessionFleet}. */
type RedisRelayMethods = Pick<LegacySessionFleet, 'send' | 'broadcast' | 'subscribe' | 'listening'>;

/** What the relay needs: the connection, this instance, the channel prefix, the deadline and the error hook. */
export interface RelaySettings {
  readonly redis: RedisConnection;
  readonly instanceId: string;
  /** Prefix of the channel names (not hash-tagged: the channels spread over a cluster's slots). */
  readonly prefix: string;
  readonly timed: <T>(operation: Promise<T>) => Promise<T>;
  readonly onerror: ((error: Error) => void) | undefined;
}

/**
 * The connection relays are received on: a second connection to the server; with Sentinel the
 * sentinel's own pub/sub connection, which follows the primary across a failover; on a cluster the
 * cluster client itself, which keeps a sharded pub/sub connection per primary.
 */
async function pubSubOf(
  redis: RedisConnection,
  onerror: ((error: Error) => void) | undefined,
): Promise<RedisConnection> {
  if (isSentinelConnection(redis) || isClusterConnection(redis)) return redis;
  const subscriber = redis.duplicate();
  subscriber.on('error', (error: Error) => onerror?.(error));
  await subscriber.connect();
  return subscriber;
}

/** Publishes `text` on `name` (sharded on a cluster); resolves to the subscribers it reached. */
function publish(redis: RedisConnection, name: string, text: string): Promise<number> {
  return isClusterConnection(redis) ? redis.sPublish(name, text) : redis.publish(name, text);
}

/** The relay of one instance over `settings.redis`. */
export function redisRelay(settings: RelaySettings): RedisRelayMethods {
  const { redis, instanceId, prefix, timed, onerror } = settings;
  const channel = (id: string) => `${prefix}relay:${id}`;
  const everyone = `${prefix}relay-all`;
  return {
    async send(target, message) {
      // PUBLISH counts the subscribers it reached: none means the instance is down or re-subscribing.
      const receivers = await timed(publish(redis, channel(target), JSON.stringify(message)));
      if (receivers === 0) throw new Error(`no instance ${JSON.stringify(target)} is listening`);
    },
    async broadcast(message) {
      await timed(publish(redis, everyone, JSON.stringify(message)));
    },
    async subscribe(onmessage) {
      const subscriber = await timed(pubSubOf(redis, onerror));
      const listener = (text: string | Buffer) => {
        let message: FleetMessage;
        try {
          message = JSON.parse(text.toString()) as FleetMessage;
        } catch (error) {
          onerror?.(new Error(`Dropped a relayed message that is not JSON: ${String(error)}`));
          return;
        }
        onmessage(message);
      };
      const channels = [channel(instanceId), everyone];
      if (isClusterConnection(subscriber)) {
        // Sharded subscriptions are per slot: one command per channel.
        for (const name of channels) await timed(subscriber.sSubscribe(name, listener));
        return async () => {
          for (const name of channels) await subscriber.sUnsubscribe(name, listener).catch(() => undefined);
        };
      }
      await timed(subscriber.subscribe(channels, listener));
      return async () => {
        await subscriber.unsubscribe(channels, listener).catch(() => undefined);
        if (subscriber !== redis) await Promise.resolve(subscriber.destroy()).catch(() => undefined);
      };
    },
    async listening(target = instanceId) {
      const name = channel(target);
      const node = await timed(clusterNodeFor(redis, name));
      const counts = await timed(node === undefined ? redis.pubSubNumSub(name) : node.pubSubShardNumSub(name));
      return Number(counts[name] ?? 0) > 0;
    },
  };
}
