/**
 * Where answer pages and their answers are kept, and the bounds on what they hold. A backend keeps
 * pages as whole units (the page, its answer once given, the call's binding to it) and does each
 * step in one atomic operation: opening a page (admitted only within the bounds: open pages per
 * client, pages in all, bytes in all), reading an open page, storing an answer and closing the page
 * together, and taking the answer. This is the whole contract a fleet's shared store implements
 * (Redis: one Lua script a step); the in-memory backend here is the default for one process.
 */
import { ToolError } from '../errors.js';
import { positiveInteger } from '../optionChecks.js';

/** The bounds of a backend's pages, as resolved. */
export interface AnswerPageLimits {
  /** Most pages open (or answered and not yet taken) for one client at once. */
  readonly maxPagesPerClient: number;
  /** Most pages held at once, in all. */
  readonly maxPages: number;
  /** Most bytes held at once by pages and answers (UTF-8, plus a fixed cost a page). */
  readonly maxBytes: number;
}

/** The options that set {@link AnswerPageLimits}, shared by every backend. */
export interface AnswerPageLimitOptions {
  /**
   * Most pages one client (its principal, else its address) holds at once, open or answered and
   * not yet taken; past it that client's next page is refused with a `ToolError` naming the limit
   * and when to retry, and other clients still get theirs. @default 16
   */
  readonly maxPagesPerClient?: number;
  /** Most pages held at once, in all. @default 10_000 */
  readonly maxPages?: number;
  /**
   * Most bytes held at once by pages and answers: UTF-8 bytes of what is stored (in memory, at least
   * what the text takes in a JavaScript heap) plus 512 a page. @default 16_777_216 (16 MiB)
   */
  readonly maxBytes?: number;
}

/** Why a page was not opened or an answer not stored: the bound reached, and when room is expected. */
export interface AnswerPageRefusal {
  readonly limit: keyof AnswerPageLimits;
  /** The bound's value. */
  readonly max: number;
  /** Ms until the first page counted against it expires (an answered page taken frees room sooner). */
  readonly retryAfterMs: number;
}

/** A page to open. */
export interface NewAnswerPage {
  /** 22 base64url characters. */
  readonly pageId: string;
  /** The page as stored (JSON). */
  readonly record: string;
  /** The call's binding digest: the page is filed under it until it expires or its answer is taken. */
  readonly bindingKey: string;
  /** Whose quota the page counts against (a principal, else an address). */
  readonly client: string;
  /** When the page expires, in ms since the epoch. */
  readonly expiresAt: number;
}

/** What the answer page store needs from a store. Every step is atomic; every method may be asynchronous. */
export interface AnswerPageBackend {
  /** The bounds it keeps. */
  readonly limits: AnswerPageLimits;
  /**
   * Opens `page` and files it under its binding, unless a bound would be passed (a refusal) or
   * the page id is taken (`'exists'`).
   */
  open(page: NewAnswerPage): Promise<'opened' | 'exists' | AnswerPageRefusal>;
  /** The record of page `pageId` while it is open (stored, not expired, not answered). */
  page(pageId: string): Promise<string | undefined>;
  /** The record of the page filed under `bindingKey` while it is open. */
  pageFor(bindingKey: string): Promise<string | undefined>;
  /**
   * Stores `answer` and closes page `pageId` in one step, the answer and the page's binding kept
   * until `expiresAt`: `'closed'` when the page is not open (answered, expired, unknown), a refusal
   * when the answer would pass `maxBytes`. A failure stores nothing: the page stays open.
   */
  answer(pageId: string, answer: string, expiresAt: number): Promise<'stored' | 'closed' | AnswerPageRefusal>;
  /** Takes the answer of the page filed under `bindingKey`, once, and forgets the page. */
  take(bindingKey: string): Promise<string | undefined>;
}

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

/** The default byte budget of pages (16 MiB). */
export const DEFAULT_ANSWER_PAGE_MAX_BYTES = 16 * 1024 * 1024;

/** The default count of pages held at once. */
export const DEFAULT_MAX_ANSWER_PAGES = 10_000;

/** The default count of pages one client holds at once. */
export const DEFAULT_MAX_ANSWER_PAGES_PER_CLIENT = 16;

/** What a page costs besides its text: keys, bookkeeping and the store's own overhead. */
export const ANSWER_PAGE_OVERHEAD_BYTES = 512;

/** The limits `options` set, checked (`api` names the function in messages). */
export function answerPageLimits(api: string, options: AnswerPageLimitOptions): AnswerPageLimits {
  return {
    maxPagesPerClient: positiveInteger(
      api,
      'maxPagesPerClient',
      options.maxPagesPerClient,
      DEFAULT_MAX_ANSWER_PAGES_PER_CLIENT,
    ),
    maxPages: positiveInteger(api, 'maxPages', options.maxPages, DEFAULT_MAX_ANSWER_PAGES),
    maxBytes: positiveInteger(api, 'maxBytes', options.maxBytes, DEFAULT_ANSWER_PAGE_MAX_BYTES),
  };
}

/** The option each bound is set by, and what it counts, for refusal messages. */
const BOUNDS: Readonly<Record<keyof AnswerPageLimits, string>> = {
  maxPagesPerClient: 'questions open on pages for this client',
  maxPages: 'questions open on pages on this server',
  maxBytes: 'bytes of questions and answers on pages on this server',
};

/** The `ToolError` a refusal is given to the client as: the bound, its option, and when to retry. */
export function refusalError(refusal: AnswerPageRefusal): ToolError {
  const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
  return new ToolError(
    `Answer pages: this call needs a page, and there are already ${refusal.max} ${BOUNDS[refusal.limit]}, the most allowed (the answer page backend's ${refusal.limit} option). Answer or finish an open question, or retry after ${seconds} s.`,
  );
}

/**
 * What `text` costs held: the larger of its UTF-8 size and what it takes in a JavaScript heap (one
 * byte a character, two when any character is past U+00FF), so neither non-Latin text nor Latin
 * text made wide by one character passes the budget.
 */
export function heldBytes(text: string): number {
  let utf8 = 0;
  let wide = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) utf8 += 1;
    else if (code < 0x800) utf8 += 2;
    else if (code >= 0xd800 && code < 0xdc00 && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      utf8 += 4;
      index += 1;
    } else utf8 += 3;
    if (code > 0xff) wide = true;
  }
  return Math.max(utf8, text.length * (wide ? 2 : 1));
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
      const size = heldBytes(page.record) + ANSWER_PAGE_OVERHEAD_BYTES;
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
      const size = heldBytes(answer);
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
