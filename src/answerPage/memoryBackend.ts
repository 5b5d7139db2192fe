/**
 * The in-memory answer page backend: pages of one process in maps, bounded per client, in count
 * and in bytes (UTF-8, and at least what the text takes in a JavaScript heap), each step one
 * synchronous operation (atomic, since nothing else runs in between).
 */
import type { AnswerPageBackend, AnswerPageLimitOptions, AnswerPageLimits, AnswerPageRefusal } from './backend.js';
import { utf8Bytes } from '../state/bytes.js';
import { ANSWER_PAGE_OVERHEAD_BYTES, answerPageLimits } from './backend.js';

/** A character past U+00FF: a JavaScript heap keeps the whole string two bytes a character. */
const WIDE = /[\u0100-\uffff]/;

/** Options of {@link createMemoryAnswerPageBackend}. */
export interface MemoryAnswerPageBackendOptions extends AnswerPageLimitOptions {
  /** Clock in ms since the epoch. @default Date.now */
  readonly now?: () => number;
}

/** The in-memory {@link AnswerPageBackend}, with what it holds for monitoring. */
export interface MemoryAnswerPageBackend extends AnswerPageBackend {
  /** Bytes held now (see {@link AnswerPageLimitOptions.maxBytes}). */
  readonly bytes: number;
  /** Pages held now. */
  readonly size: number;
}

/**
 * What `text` costs held: the larger of its UTF-8 size and what it takes in a JavaScript heap (one
 * byte a character, two when any character is past U+00FF), so neither non-Latin text nor Latin
 * text made wide by one character passes the budget.
 */
export function storedBytes(text: string): number {
  return Math.max(utf8Bytes(text), WIDE.test(text) ? text.length * 2 : text.length);
}

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

/** Creates an in-memory answer page backend for one process (a fleet needs a shared one, such as Redis). */
export function createMemoryAnswerPageBackend(options: MemoryAnswerPageBackendOptions = {}): MemoryAnswerPageBackend {
  const limits = answerPageLimits('createMemoryAnswerPageBackend()', options);
  const now = options.now ?? Date.now;
  const pages = new Map<string, Held>();
  const bindings = new Map<string, string>();
  const clients = new Map<string, Set<string>>();
  let bytes = 0;

  const forget = (pageId: string): void => {
    const held = pages.get(pageId);
    if (held === undefined) return;
    pages.delete(pageId);
    bytes -= held.bytes;
    if (bindings.get(held.bindingKey) === pageId) bindings.delete(held.bindingKey);
    const mine = clients.get(held.client);
    mine?.delete(pageId);
    if (mine?.size === 0) clients.delete(held.client);
  };
  const live = (pageId: string | undefined): Held | undefined => {
    const held = pageId === undefined ? undefined : pages.get(pageId);
    if (held === undefined || pageId === undefined) return undefined;
    if (held.expiresAt > now()) return held;
    forget(pageId);
    return undefined;
  };
  const openRecord = (pageId: string | undefined): string | undefined => {
    const held = live(pageId);
    return held !== undefined && held.answer === undefined && held.closesAt > now() ? held.record : undefined;
  };
  let lastSweep = Number.NEGATIVE_INFINITY;
  /** Drops expired pages, at most once a second (a full store must not make every call a full scan). */
  const sweep = (): void => {
    const at = now();
    if (at - lastSweep < 1_000) return;
    lastSweep = at;
    for (const [pageId, held] of pages) if (held.expiresAt <= at) forget(pageId);
  };
  /** A refusal of `limit`, retrying when the first of `ids` expires. */
  const refusal = (limit: keyof AnswerPageLimits, ids: Iterable<string>): AnswerPageRefusal => {
    let first = Number.POSITIVE_INFINITY;
    for (const pageId of ids) first = Math.min(first, pages.get(pageId)?.expiresAt ?? first);
    return { limit, max: limits[limit], retryAfterMs: Number.isFinite(first) ? Math.max(0, first - now()) : 0 };
  };
  const bound = (client: string, adding: number, newPage: boolean): AnswerPageRefusal | undefined => {
    // A client's own pages are few: drop its expired ones every time, so its retry time holds.
    for (const pageId of clients.get(client) ?? []) live(pageId);
    const over = (): keyof AnswerPageLimits | undefined => {
      if (newPage && (clients.get(client)?.size ?? 0) >= limits.maxPagesPerClient) return 'maxPagesPerClient';
      if (newPage && pages.size >= limits.maxPages) return 'maxPages';
      return bytes + adding > limits.maxBytes ? 'maxBytes' : undefined;
    };
    if (over() !== undefined) sweep();
    const limit = over();
    if (limit === undefined) return undefined;
    return refusal(limit, limit === 'maxPagesPerClient' ? (clients.get(client) ?? []) : pages.keys());
  };

  return {
    limits,
    get bytes() {
      return bytes;
    },
    get size() {
      return pages.size;
    },
    async open(page) {
      if (live(page.pageId) !== undefined) return 'exists';
      const size = storedBytes(page.record) + ANSWER_PAGE_OVERHEAD_BYTES;
      const refused = bound(page.client, size, true);
      if (refused !== undefined) return refused;
      const { pageId, record, bindingKey, client, expiresAt } = page;
      pages.set(pageId, { record, bindingKey, client, closesAt: expiresAt, answer: undefined, expiresAt, bytes: size });
      bytes += size;
      bindings.set(bindingKey, pageId);
      const mine = clients.get(client) ?? new Set<string>();
      clients.set(client, mine.add(pageId));
      return 'opened';
    },
    async page(pageId) {
      return openRecord(pageId);
    },
    async pageFor(bindingKey) {
      return openRecord(bindings.get(bindingKey));
    },
    async answer(pageId, answer, expiresAt) {
      const held = live(pageId);
      if (held === undefined || openRecord(pageId) === undefined) return 'closed';
      const size = storedBytes(answer);
      const refused = bound(held.client, size, false);
      if (refused !== undefined) return refused;
      held.answer = answer;
      held.bytes += size;
      held.expiresAt = Math.max(held.expiresAt, expiresAt);
      bytes += size;
      bindings.set(held.bindingKey, pageId);
      return 'stored';
    },
    async take(bindingKey) {
      const pageId = bindings.get(bindingKey);
      const held = live(pageId);
      if (held?.answer === undefined || pageId === undefined) return undefined;
      forget(pageId);
      return held.answer;
    },
  };
}
