/**
 * An in-process model of what the replay guard uses of Durable Objects: key-value storage (sorted
 * `list`, batch `get`/`delete`, atomic multi-key `put`) with an alarm the test fires itself, and
 * a namespace whose stubs deliver one request at a time to each object (the input gate, as the
 * object's storage-only awaits see it). The real runtime runs in replayStore.int.test.ts (workerd).
 */
import type { ReplayGuardNamespace, ReplayGuardStorage } from 'mcp-resolve/workers';
import { ReplayGuardObject } from 'mcp-resolve/workers';

/** Storage over a `Map`, whose alarm the test fires. */
export interface ModelStorage extends ReplayGuardStorage {
  /** Every key, sorted. */
  keys(): string[];
  /** Unsets the alarm, as the runtime does when it goes off (then the test calls the object's `alarm()`). */
  alarmWentOff(): void;
}

/** Key-value storage as a Durable Object's (each call settles asynchronously). */
export function modelStorage(): ModelStorage {
  const data = new Map<string, unknown>();
  let alarm: number | null = null;
  const tick = () => Promise.resolve();
  const sorted = () => [...data.keys()].sort();
  const storage = {
    keys: sorted,
    alarmWentOff() {
      alarm = null;
    },
    async get(key: string | string[]) {
      await tick();
      if (typeof key === 'string') return data.get(key);
      return new Map(key.filter((one) => data.has(one)).map((one) => [one, data.get(one)]));
    },
    async put(entries: Record<string, unknown>) {
      await tick();
      for (const [key, value] of Object.entries(entries)) data.set(key, value);
    },
    async delete(keys: string[]) {
      await tick();
      if (keys.length > 128) throw new Error('delete() takes at most 128 keys');
      return keys.filter((key) => data.delete(key)).length;
    },
    async list(options: { start?: string; end?: string; limit?: number }) {
      await tick();
      const inRange = sorted().filter(
        (key) =>
          (options.start === undefined || key >= options.start) && (options.end === undefined || key < options.end),
      );
      return new Map(inRange.slice(0, options.limit).map((key) => [key, data.get(key)]));
    },
    async getAlarm() {
      await tick();
      return alarm;
    },
    async setAlarm(at: number) {
      await tick();
      alarm = at;
    },
  };
  return storage as ModelStorage;
}

/** A namespace of `ReplayGuardObject`s by name; each object serves one request at a time. */
export interface ModelNamespace extends ReplayGuardNamespace<string> {
  /** The objects created so far, by name. */
  readonly objects: Map<string, { object: ReplayGuardObject; storage: ModelStorage }>;
}

export function modelNamespace(): ModelNamespace {
  const objects = new Map<string, { object: ReplayGuardObject; storage: ModelStorage; gate: Promise<unknown> }>();
  return {
    objects,
    idFromName: (name) => name,
    get(name) {
      return {
        fetch(request) {
          let entry = objects.get(name);
          if (entry === undefined) {
            const storage = modelStorage();
            entry = { object: new ReplayGuardObject({ storage }), storage, gate: Promise.resolve() };
            objects.set(name, entry);
          }
          const { object } = entry;
          const served = entry.gate.then(() => object.fetch(request));
          entry.gate = served.catch(() => undefined);
          return served;
        },
      };
    },
  };
}
