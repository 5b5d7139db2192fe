/**
 * The replay guard of a Cloudflare Worker: a {@link ReplayStore} whose consumed token ids live in
 * Durable Objects ({@link ReplayGuardObject}), reached through the namespace binding.
 *
 * Ids are spread over `shards` objects (named `<prefix><n>`, `n` from a hash of the id): each id
 * always goes to the same object, which answers its checks one at a time, so an id is accepted
 * once however many isolates check it at once; more objects raise the ceiling of one object
 * (about a thousand requests a second) without any cross-object coordination.
 */
import { McpResolveError } from '../errors.js';
import type { ReplayStore } from '../state/replay.js';
import { CONSUME_PATH } from './replayGuardObject.js';

/** A Durable Object stub as the store uses it: `fetch` to the object. */
export interface ReplayGuardStub {
  /** Sends a request to the object. */
  fetch(request: Request): Promise<Response>;
}

/** The subset of a Durable Object namespace binding (`DurableObjectNamespace`) the store uses. */
export interface ReplayGuardNamespace<Id = unknown> {
  /** The id of the object named `name` (the same name is the same object, everywhere). */
  idFromName(name: string): Id;
  /** A stub for the object with that id. */
  get(id: Id): ReplayGuardStub;
}

/** The default number of objects the ids are spread over. */
const DEFAULT_REPLAY_SHARDS = 16;

const MAX_SHARDS = 1_024;

/** FNV-1a (32 bits) of the id: which object holds it. */
function shardOf(id: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index += 1) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}

/** Reads an object's answer: `true` or `false`, or throws with what came back instead. */
async function firstFrom(response: Response): Promise<boolean> {
  const text = await response.text();
  if (response.ok) {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && 'first' in body && typeof body.first === 'boolean') {
      return body.first;
    }
  }
  throw new Error(`the object answered HTTP ${response.status} ${text.slice(0, 200)}`);
}

/**
 * Creates a {@link ReplayStore} over a Durable Object namespace bound to {@link ReplayGuardObject}
 * (`env.REPLAY_GUARD` in a Worker). Every check is one request to one object. When the object
 * cannot answer, `consume` rejects and the sealer fails the round closed: the check is never skipped.
 */
export function createDurableObjectReplayStore<Id>(
  namespace: ReplayGuardNamespace<Id>,
  options: {
    /**
     * How many objects share the ids (1 to 1,024). Keep it fixed: changing it moves ids to other
     * objects, which have not seen them. @default 16
     */
    readonly shards?: number;
    /** Prefix of the objects' names; use one per audience sharing a namespace. @default 'mcp-resolve:replay:' */
    readonly namePrefix?: string;
    /** Receives each failed check with the reason (the round is refused either way). */
    readonly onerror?: (error: Error) => void;
  } = {},
): ReplayStore {
  const shards = options.shards ?? DEFAULT_REPLAY_SHARDS;
  if (!Number.isSafeInteger(shards) || shards < 1 || shards > MAX_SHARDS) {
    throw new McpResolveError(
      'invalid_options',
      `createDurableObjectReplayStore(): options.shards must be an integer from 1 to ${MAX_SHARDS} (got ${String(shards)}).`,
      { data: { api: 'createDurableObjectReplayStore()', option: 'shards' } },
    );
  }
  const prefix = options.namePrefix ?? 'mcp-resolve:replay:';

  return {
    async consume(tokenId, expiresAt) {
      const name = prefix + String(shardOf(tokenId, shards));
      try {
        const stub = namespace.get(namespace.idFromName(name));
        const request = new Request(`https://replay-guard${CONSUME_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: tokenId, expiresAt: Math.ceil(expiresAt) }),
        });
        return await firstFrom(await stub.fetch(request));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const failure = new Error(
          `Replay check failed: the Durable Object ${name} did not answer (${reason}). The round is refused (its token may already count as used); start the call again.`,
          { cause: error },
        );
        options.onerror?.(failure);
        throw failure;
      }
    },
  };
}
