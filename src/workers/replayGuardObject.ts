/**
 * The Durable Object that keeps the replay guard's consumed token ids: {@link ReplayGuardObject}.
 *
 * One object holds the ids of one shard (`createDurableObjectReplayStore` picks the shard from the
 * id). A check reads the id's record and, on first use, writes it in one `put` of two keys: the
 * record `t:<id>` (its expiry) and an expiry index entry `e:<expiry>:<id>`. The object runs one
 * event at a time and the runtime's input gate delivers no other request while a storage call is
 * in flight, so two checks of one id cannot both read "absent": exactly one is first. The output
 * gate holds the answer until the write is durable, so an accepted id is never forgotten by a restart.
 *
 * Expiry: an alarm at the earliest expiry deletes expired ids in batches, oldest first, and sets
 * itself again at the next one; storage holds only the ids whose tokens could still be opened.
 */

/** The subset of a Durable Object's `state.storage` (its key-value API) the replay guard uses. */
export interface ReplayGuardStorage {
  /** Reads one key. */
  get(key: string): Promise<unknown>;
  /** Reads several keys (at most 128). */
  get(keys: string[]): Promise<Map<string, unknown>>;
  /** Writes several keys atomically. */
  put(entries: Record<string, unknown>): Promise<void>;
  /** Deletes several keys (at most 128). */
  delete(keys: string[]): Promise<number>;
  /** Lists keys in order, from `start` (inclusive) to `end` (exclusive), at most `limit`. */
  list(options: { start?: string; end?: string; limit?: number }): Promise<Map<string, unknown>>;
  /** When the alarm is set to go off (ms since the epoch), or `null`. */
  getAlarm(): Promise<number | null>;
  /** Sets the alarm (one per object; a later call replaces it). */
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The subset of a Durable Object's `state` (`DurableObjectState`) the replay guard uses. */
export interface ReplayGuardState {
  /** The object's transactional storage. */
  readonly storage: ReplayGuardStorage;
}

/** The path of a check; the body is `{ "id": string, "expiresAt": number }`, the answer `{ "first": boolean }`. */
export const CONSUME_PATH = '/consume';

/** The longest token id an object accepts (the library's ids are 16 characters). */
export const MAX_TOKEN_ID_LENGTH = 128;

/** Expired ids deleted per storage batch (two keys each; a delete takes at most 128). */
const SWEEP_BATCH = 64;
/** Batches per alarm; more expired ids than this are swept by the alarm set again at once. */
const SWEEP_BATCHES_PER_ALARM = 16;
/** Digits of an expiry in an index key, so keys sort by expiry (ms since the epoch fit in 15 digits until year 33658). */
const EXPIRY_DIGITS = 15;

const recordKey = (id: string) => `t:${id}`;
const indexKey = (expiresAt: number, id: string) => `e:${String(expiresAt).padStart(EXPIRY_DIGITS, '0')}:${id}`;
/** The first index key past every entry expiring at or before `at`. */
const indexEnd = (at: number) => `e:${String(at + 1).padStart(EXPIRY_DIGITS, '0')}:`;
/** Past every index key (';' follows ':'), before the records. */
const INDEX_END = 'e;';

/** Reads a check's body: the id and its expiry, or `undefined` when malformed. */
function readCheck(body: unknown): { id: string; expiresAt: number } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { id, expiresAt } = body as { id?: unknown; expiresAt?: unknown };
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_TOKEN_ID_LENGTH) return undefined;
  if (typeof expiresAt !== 'number' || !Number.isSafeInteger(expiresAt) || expiresAt < 0) return undefined;
  return { id, expiresAt };
}

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The Durable Object class of the replay guard. Export it from the Worker's main module and bind
 * a namespace to it (docs/guides/scaling.md, "Cloudflare Workers"):
 * `export { ReplayGuardObject } from 'mcp-resolve/workers';`. It answers only the store's checks
 * (`POST /consume`); anything else is 404, a malformed check 400.
 */
export class ReplayGuardObject {
  readonly #storage: ReplayGuardStorage;
  /** When the alarm is known to go off (`null`: none); `undefined` until read once. */
  #alarmAt: number | null | undefined;

  /** Called by the runtime with the object's state (`env` is not used). */
  constructor(state: ReplayGuardState, _env?: unknown) {
    this.#storage = state.storage;
  }

  /** Serves one check: `{ "first": true }` on the id's first use before its expiry, else `false`. */
  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname !== CONSUME_PATH) return jsonResponse(404, { error: 'not found' });
    if (request.method !== 'POST') return jsonResponse(405, { error: 'POST only' });
    const check = readCheck(await request.json().catch(() => undefined));
    if (check === undefined) {
      return jsonResponse(400, {
        error: `expected {"id": a string of 1 to ${MAX_TOKEN_ID_LENGTH} characters, "expiresAt": ms since the epoch}`,
      });
    }
    return jsonResponse(200, { first: await this.#consume(check.id, check.expiresAt) });
  }

  /** Marks `id` consumed until `expiresAt`; `true` on its first use, `false` while an earlier use has not expired. */
  async #consume(id: string, expiresAt: number): Promise<boolean> {
    const at = Date.now();
    const known = await this.#storage.get(recordKey(id));
    if (typeof known === 'number' && known > at) return false;
    if (expiresAt <= at) return true; // already past its validity: nothing left to guard
    await this.#storage.put({ [recordKey(id)]: expiresAt, [indexKey(expiresAt, id)]: 0 });
    await this.#alarmBy(expiresAt);
    return true;
  }

  /** Deletes the expired ids, oldest first, then sets the alarm at the next expiry. */
  async alarm(): Promise<void> {
    this.#alarmAt = null; // the alarm that went off is gone
    const at = Date.now();
    for (let batch = 0; batch < SWEEP_BATCHES_PER_ALARM; batch += 1) {
      const expired = await this.#storage.list({ start: 'e:', end: indexEnd(at), limit: SWEEP_BATCH });
      if (expired.size === 0) break;
      const doomed: string[] = [];
      const records = await this.#storage.get([...expired.keys()].map((key) => recordKey(idOf(key))));
      for (const key of expired.keys()) {
        doomed.push(key);
        const id = idOf(key);
        // A record consumed again later carries a later expiry: only its older index entry goes.
        const record = records.get(recordKey(id));
        if (typeof record !== 'number' || record <= at) doomed.push(recordKey(id));
      }
      await this.#storage.delete(doomed);
      if (expired.size < SWEEP_BATCH) break;
    }
    const [next] = (await this.#storage.list({ start: 'e:', end: INDEX_END, limit: 1 })).keys();
    if (next === undefined) return;
    this.#alarmAt = Math.max(expiryOf(next), at);
    await this.#storage.setAlarm(this.#alarmAt);
  }

  /** Makes sure the alarm goes off by `at` (a check's expiry). */
  async #alarmBy(at: number): Promise<void> {
    this.#alarmAt ??= await this.#storage.getAlarm();
    if (this.#alarmAt !== null && this.#alarmAt <= at) return;
    await this.#storage.setAlarm(at);
    this.#alarmAt = at;
  }
}

/** The token id of an index key `e:<expiry>:<id>`. */
const idOf = (key: string) => key.slice(3 + EXPIRY_DIGITS);
/** The expiry of an index key. */
const expiryOf = (key: string) => Number(key.slice(2, 2 + EXPIRY_DIGITS));
