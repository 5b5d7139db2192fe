/**
 * The in-memory answer page backend: pages of one process in maps, bounded per client, in count
 * and in held bytes (each text at least what it takes in a JavaScript heap), each step one
 * synchronous operation (atomic, since nothing else runs in between).
 */
import type { AnswerPageBackend, AnswerPageLimits, AnswerPageRefusal, NewAnswerPage } from './backend.js';
import { heldTextBytes } from '../state/bytes.js';
import { ANSWER_PAGE_OVERHEAD_BYTES, answerPageLimits } from './backend.js';

/** The in-memory {@link AnswerPageBackend}, with what it holds for monitoring. */
type MemoryAnswerPageBackend = ReturnType<typeof createMemoryAnswerPageBackend>;

interface Held {
  readonly record: string;
  readonly bindingKey: string;
  readonly client: string;
  /** When the page closes unanswered. */
  readonly closesAt: number;
  answer: string | undefined;
  /** When the whole entry is forgotten (the page's expiry, then the answer's). */
  expiresAt: number;
  bytes: number;
}

/**
 * Creates an in-memory answer page backend for one process (a fleet needs a shared one, such as
 * Redis). A plain object: its methods can be spread into a wrapping backend.
 */
export function createMemoryAnswerPageBackend(
  options: Partial<AnswerPageLimits> & {
    /** Clock in ms since the epoch. @default Date.now */
    readonly now?: () => number;
  } = {},
): AnswerPageBackend & {
  /** Bytes held now (see {@link AnswerPageLimits.maxHeldBytes}). */
  readonly bytes: number;
  /** Pages held now. */
  readonly size: number;
} {
  const pages = new MemoryPages(answerPageLimits('createMemoryAnswerPageBackend()', options), options.now ?? Date.now);
  return {
    limits: pages.limits,
    get bytes() {
      return pages.bytes;
    },
    get size() {
      return pages.size;
    },
    open: (page) => pages.open(page),
    page: (pageId) => pages.page(pageId),
    pageFor: (bindingKey) => pages.pageFor(bindingKey),
    answer: (pageId, answer, expiresAt) => pages.answer(pageId, answer, expiresAt),
    take: (bindingKey) => pages.take(bindingKey),
  };
}

/** The pages of one process: each method one synchronous step (atomic, since nothing else runs in between). */
class MemoryPages implements MemoryAnswerPageBackend {
  private readonly pages = new Map<string, Held>();
  private readonly bindings = new Map<string, string>();
  private readonly clients = new Map<string, Set<string>>();
  private held = 0;
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(
    readonly limits: AnswerPageLimits,
    private readonly now: () => number,
  ) {}

  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.pages.size;
  }

  async open(page: NewAnswerPage): Promise<'opened' | 'exists' | AnswerPageRefusal> {
    if (this.live(page.pageId) !== undefined) return 'exists';
    const size = heldTextBytes(page.record) + ANSWER_PAGE_OVERHEAD_BYTES;
    const refused = this.bound(page.client, size, true);
    if (refused !== undefined) return refused;
    const { pageId, record, bindingKey, client, expiresAt } = page;
    this.pages.set(pageId, {
      record,
      bindingKey,
      client,
      closesAt: expiresAt,
      answer: undefined,
      expiresAt,
      bytes: size,
    });
    this.held += size;
    this.bindings.set(bindingKey, pageId);
    const mine = this.clients.get(client) ?? new Set<string>();
    this.clients.set(client, mine.add(pageId));
    return 'opened';
  }

  async page(pageId: string): Promise<string | undefined> {
    return this.openRecord(pageId);
  }

  async pageFor(bindingKey: string): Promise<string | undefined> {
    return this.openRecord(this.bindings.get(bindingKey));
  }

  async answer(pageId: string, answer: string, expiresAt: number): Promise<'stored' | 'closed' | AnswerPageRefusal> {
    const held = this.live(pageId);
    if (held === undefined || this.openRecord(pageId) === undefined) return 'closed';
    const size = heldTextBytes(answer);
    const refused = this.bound(held.client, size, false);
    if (refused !== undefined) return refused;
    held.answer = answer;
    held.bytes += size;
    held.expiresAt = Math.max(held.expiresAt, expiresAt);
    this.held += size;
    this.bindings.set(held.bindingKey, pageId);
    return 'stored';
  }

  async take(bindingKey: string): Promise<string | undefined> {
    const pageId = this.bindings.get(bindingKey);
    const held = this.live(pageId);
    if (held?.answer === undefined || pageId === undefined) return undefined;
    this.forget(pageId);
    return held.answer;
  }

  private forget(pageId: string): void {
    const held = this.pages.get(pageId);
    if (held === undefined) return;
    this.pages.delete(pageId);
    this.held -= held.bytes;
    if (this.bindings.get(held.bindingKey) === pageId) this.bindings.delete(held.bindingKey);
    const mine = this.clients.get(held.client);
    mine?.delete(pageId);
    if (mine?.size === 0) this.clients.delete(held.client);
  }

  private live(pageId: string | undefined): Held | undefined {
    const held = pageId === undefined ? undefined : this.pages.get(pageId);
    if (held === undefined || pageId === undefined) return undefined;
    if (held.expiresAt > this.now()) return held;
    this.forget(pageId);
    return undefined;
  }

  private openRecord(pageId: string | undefined): string | undefined {
    const held = this.live(pageId);
    return held !== undefined && held.answer === undefined && held.closesAt > this.now() ? held.record : undefined;
  }

  /** Drops expired pages, at most once a second (a full store must not make every call a full scan). */
  private sweep(): void {
    const at = this.now();
    if (at - this.lastSweep < 1_000) return;
    this.lastSweep = at;
    for (const [pageId, held] of this.pages) if (held.expiresAt <= at) this.forget(pageId);
  }

  /** A refusal of `limit`, retrying when the first of `ids` expires. */
  private refusal(limit: keyof AnswerPageLimits, ids: Iterable<string>): AnswerPageRefusal {
    let first = Number.POSITIVE_INFINITY;
    for (const pageId of ids) first = Math.min(first, this.pages.get(pageId)?.expiresAt ?? first);
    const retryAfterMs = Number.isFinite(first) ? Math.max(0, first - this.now()) : 0;
    return { limit, max: this.limits[limit], retryAfterMs };
  }

  /** The limit that adding `adding` bytes (and a page, when `newPage`) for `client` would pass, if any. */
  private over(client: string, adding: number, newPage: boolean): keyof AnswerPageLimits | undefined {
    if (newPage && (this.clients.get(client)?.size ?? 0) >= this.limits.maxPagesPerClient) return 'maxPagesPerClient';
    if (newPage && this.pages.size >= this.limits.maxPages) return 'maxPages';
    return this.held + adding > this.limits.maxHeldBytes ? 'maxHeldBytes' : undefined;
  }

  private bound(client: string, adding: number, newPage: boolean): AnswerPageRefusal | undefined {
    // A client's own pages are few: drop its expired ones every time, so its retry time holds.
    for (const pageId of this.clients.get(client) ?? []) this.live(pageId);
    if (this.over(client, adding, newPage) !== undefined) this.sweep();
    const limit = this.over(client, adding, newPage);
    if (limit === undefined) return undefined;
    return this.refusal(limit, limit === 'maxPagesPerClient' ? (this.clients.get(client) ?? []) : this.pages.keys());
  }
}
