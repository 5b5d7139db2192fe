/**
 * A {@link TaskStore} in Redis, so that every instance sharing the Redis serves `tasks/get`,
 * `tasks/update` and `tasks/cancel` for any task, and resumes it: one key per task holding the
 * JSON record, expiring at the task's `expiresAt` (`PXAT`), created with `NX`, and replaced by a
 * Lua script that compares the stored revision first, so two instances can never both win a
 * write (and a body is entered once). Uses the official `redis` package (node-redis), the
 * client this project standardised on; pass a client from `connectRedis`.
 *
 * Every call has a deadline (`storeTimeoutMs`), the replay store's and session fleet's mechanism
 * ({@link withDeadline}): a Redis that stopped answering fails the call instead of holding it. A
 * command already written to a stalled Redis cannot be recalled, and Redis runs it once it
 * answers again; so each write carries its deadline, and the script that writes compares it with
 * Redis's clock first and refuses a write that arrives after it. A write whose caller gave up is
 * never applied later. (node-redis's offline queue is off already, and aborting a command only
 * removes it while it is still unsent, which is not the stalled case.)
 */
import type { TaskRecord, TaskStore } from '../tasks/store.js';
import { McpResolveError } from '../errors.js';
import { MILLISECONDS, positiveInteger } from '../optionChecks.js';
import type { RedisConnection } from './connection.js';
import { scriptDeadline, withDeadline } from './connection.js';
import { redisFailure } from './connectRefusal.js';

/** The default prefix of task keys. */
export const DEFAULT_TASK_KEY_PREFIX = 'mcp-resolve:task:';

/** The default deadline of one task-store call, in ms. */
export const DEFAULT_TASK_STORE_TIMEOUT_MS = 5_000;

/** Redis's clock in epoch ms, and whether it is past ARGV[1] (the write's deadline): then nothing is written. */
const PAST_DEADLINE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if now > tonumber(ARGV[1]) then return {-1, now} end
`;

/** Creates the task at KEYS[1] if absent: ARGV[1] the deadline, ARGV[2] the JSON, ARGV[3] expiresAt. 1 created, 0 exists. */
const CREATE = `${PAST_DEADLINE}
if redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PXAT', ARGV[3]) then return {1} end
return {0}
`;

/**
 * Compare-and-set on the record's revision: ARGV[1] the deadline, ARGV[2] the expected revision,
 * ARGV[3] the JSON, ARGV[4] expiresAt. 1 replaced, 0 another write came first (or the task is gone).
 */
const REPLACE_IF_REVISION = `${PAST_DEADLINE}
local current = redis.call('GET', KEYS[1])
if not current then return {0} end
if cjson.decode(current)['revision'] ~= tonumber(ARGV[2]) then return {0} end
redis.call('SET', KEYS[1], ARGV[3], 'PXAT', ARGV[4])
return {1}
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

/** What a store call was doing, as its error names it. */
type StoreStep = 'create' | 'read' | 'replace';

/**
 * Creates a task store over a connected node-redis client. A call that Redis does not answer
 * within `storeTimeoutMs`, or answers with an error, rejects with {@link McpResolveError}
 * (`redis_unavailable`, `data.operation` `'task_store'`); the task methods hand it to the
 * server's error hook and send the client a masked error with its ref.
 */
export function createRedisTaskStore(
  redis: RedisConnection,
  options: {
    /** Prefix of the task keys; use one per server sharing a Redis. @default 'mcp-resolve:task:' */
    readonly keyPrefix?: string;
    /**
     * How long one store call may wait for Redis, in ms; then it fails (the client gets a masked
     * error), and a write Redis reaches after that is refused there, never applied. @default 5000
     */
    readonly storeTimeoutMs?: number;
  } = {},
): TaskStore {
  const prefix = options.keyPrefix ?? DEFAULT_TASK_KEY_PREFIX;
  const timeoutMs = positiveInteger(
    'createRedisTaskStore()',
    'storeTimeoutMs',
    options.storeTimeoutMs,
    DEFAULT_TASK_STORE_TIMEOUT_MS,
    { unit: MILLISECONDS },
  );

  const failed = (step: StoreStep, taskId: string, reason: string, cause?: unknown) =>
    new McpResolveError('redis_unavailable', `Task store: the ${step} of task ${taskId} failed: ${reason}.`, {
      data: { operation: 'task_store' },
      cause,
    });

  /** Runs one call under the deadline; every failure becomes the store's error. */
  const call = async <T>(step: StoreStep, taskId: string, operation: () => Promise<T>): Promise<T> => {
    try {
      return await withDeadline(operation(), timeoutMs);
    } catch (error) {
      if (error instanceof McpResolveError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      const late = step === 'read' ? '' : '; if Redis runs it later it refuses it, past its deadline';
      throw failed(step, taskId, `${redisFailure(reason)}${late}`, error);
    }
  };

  /** Runs a write script under the deadline it carries; resolves its status (1 or 0). */
  const write = (step: StoreStep, record: TaskRecord, script: string, args: readonly string[]): Promise<number> =>
    call(step, record.taskId, async () => {
      const deadline = scriptDeadline(timeoutMs);
      const reply = (await redis.eval(script, {
        keys: [prefix + record.taskId],
        arguments: [String(deadline), ...args],
      })) as readonly number[];
      const [status, redisNow] = reply;
      if (status === -1) {
        throw failed(
          step,
          record.taskId,
          `Redis ran the write ${Number(redisNow) - deadline} ms past its deadline (storeTimeoutMs ${timeoutMs}) and did not apply it; if this repeats while Redis answers quickly, this instance's clock is behind Redis's (keep clocks in sync)`,
        );
      }
      return Number(status);
    });

  const expiresAt = (record: TaskRecord) => String(Math.ceil(record.expiresAt));

  return {
    async create(record) {
      const created = await write('create', record, CREATE, [JSON.stringify(record), expiresAt(record)]);
      if (created !== 1) throw new Error(`Task ${record.taskId} already exists in Redis; task ids must be unique.`);
    },
    async get(taskId) {
      const stored = await call('read', taskId, () => redis.get(prefix + taskId));
      if (stored === null) return undefined;
      const record: unknown = JSON.parse(stored);
      return isTaskRecord(record) ? record : undefined;
    },
    async replace(record, expectedRevision) {
      const replaced = await write('replace', record, REPLACE_IF_REVISION, [
        String(expectedRevision),
        JSON.stringify(record),
        expiresAt(record),
      ]);
      return replaced === 1;
    },
  };
}
