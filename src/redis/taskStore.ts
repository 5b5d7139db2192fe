/**
 * A {@link TaskStore} in Redis, so that every instance sharing the Redis serves `tasks/get`,
 * `tasks/update` and `tasks/cancel` for any task, and resumes it: one key per task holding the
 * JSON record, expiring at the task's `expiresAt` (`PXAT`), created with `NX`, and replaced by a
 * Lua script that compares the stored revision first, so two instances can never both win a
 * write (and a body is entered once). Uses the official `redis` package (node-redis), the
 * client this project standardised on; pass a client from `connectRedis`.
 */
import type { TaskRecord, TaskStore } from '../tasks/store.js';
import type { RedisConnection } from './connection.js';

/** Options of {@link createRedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** Prefix of the task keys (default `mcp-resolve:task:`); use one per server sharing a Redis. */
  readonly keyPrefix?: string;
}

/** The default prefix of task keys. */
export const DEFAULT_TASK_KEY_PREFIX = 'mcp-resolve:task:';

/** Compare-and-set on the record's revision: replaces the JSON only when the stored revision is ARGV[1]. */
const REPLACE_IF_REVISION = `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if cjson.decode(current)['revision'] ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3])
return 1
`;

function isTaskRecord(value: unknown): value is TaskRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    'taskId' in value &&
    typeof value.taskId === 'string' &&
    'revision' in value &&
    typeof value.revision === 'number' &&
    'status' in value &&
    typeof value.status === 'string'
  );
}

/** Creates a task store over a connected node-redis client. */
export function createRedisTaskStore(redis: RedisConnection, options: RedisTaskStoreOptions = {}): TaskStore {
  const prefix = options.keyPrefix ?? DEFAULT_TASK_KEY_PREFIX;
  const expiration = (record: TaskRecord) => ({ type: 'PXAT', value: Math.ceil(record.expiresAt) }) as const;
  return {
    async create(record) {
      const reply = await redis.set(prefix + record.taskId, JSON.stringify(record), {
        condition: 'NX',
        expiration: expiration(record),
      });
      if (reply !== 'OK') throw new Error(`Task ${record.taskId} already exists in Redis; task ids must be unique.`);
    },
    async get(taskId) {
      const stored = await redis.get(prefix + taskId);
      if (stored === null) return undefined;
      const record: unknown = JSON.parse(stored);
      return isTaskRecord(record) ? record : undefined;
    },
    async replace(record, expectedRevision) {
      const replaced = await redis.eval(REPLACE_IF_REVISION, {
        keys: [prefix + record.taskId],
        arguments: [String(expectedRevision), JSON.stringify(record), String(Math.ceil(record.expiresAt))],
      });
      return replaced === 1;
    },
  };
}
