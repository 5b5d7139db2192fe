/**
 * Where answer pages and their answers are kept, and the bounds on what they hold. A backend keeps
 * pages as whole units (the page, its answer once given, the call's binding to it) and does each
 * step in one atomic operation: opening a page (admitted only within the bounds: open pages per
 * client, pages in all, bytes in all), reading an open page, storing an answer and closing the page
 * together, and taking the answer. This is the whole contract a fleet's shared store implements
 * (Redis: one Lua script a step); the in-memory one (memoryBackend.ts) is the default for one process.
 */
import { ToolError } from '../errors.js';
import { positiveInteger } from '../optionChecks.js';

/**
 * The bounds of a backend's pages: its `limits`, and (each optional) the options of the backends
 * that set them, `createMemoryAnswerPageBackend` and `createRedisAnswerPageBackend`.
 */
export interface AnswerPageLimits {
  /**
   * Most pages one client (its principal, else its address) holds at once, open or answered and
   * not yet taken; past it that client's next page is refused with a `ToolError` naming the limit
   * and when to retry, and other clients still get theirs. As an option: default 16.
   */
  readonly maxPagesPerClient: number;
  /** Most pages held at once, in all. As an option: default 10,000. */
  readonly maxPages: number;
  /**
   * Most held bytes (the security guide's "What a size counts": UTF-8, plus 512 a page) of pages
   * and answers at once. As an option: default 16,777,216 (16 MiB).
   */
  readonly maxHeldBytes: number;
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
   * when the answer would pass `maxHeldBytes`. A failure stores nothing: the page stays open.
   */
  answer(pageId: string, answer: string, expiresAt: number): Promise<'stored' | 'closed' | AnswerPageRefusal>;
  /** Takes the answer of the page filed under `bindingKey`, once, and forgets the page. */
  take(bindingKey: string): Promise<string | undefined>;
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
export function answerPageLimits(api: string, options: Partial<AnswerPageLimits>): AnswerPageLimits {
  return {
    maxPagesPerClient: positiveInteger(
      api,
      'maxPagesPerClient',
      options.maxPagesPerClient,
      DEFAULT_MAX_ANSWER_PAGES_PER_CLIENT,
    ),
    maxPages: positiveInteger(api, 'maxPages', options.maxPages, DEFAULT_MAX_ANSWER_PAGES),
    maxHeldBytes: positiveInteger(api, 'maxHeldBytes', options.maxHeldBytes, DEFAULT_ANSWER_PAGE_MAX_BYTES),
  };
}

/** The option each bound is set by, and what it counts, for refusal messages. */
const BOUNDS: Readonly<Record<keyof AnswerPageLimits, string>> = {
  maxPagesPerClient: 'questions open on pages for this client',
  maxPages: 'questions open on pages on this server',
  maxHeldBytes: 'held bytes of questions and answers on pages on this server',
};

/** The `ToolError` a refusal is given to the client as: the bound, its option, and when to retry. */
export function refusalError(refusal: AnswerPageRefusal): ToolError {
  const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
  return new ToolError(
    `Answer pages: this call needs a page, and there are already ${refusal.max} ${BOUNDS[refusal.limit]}, the most allowed (the answer page backend's ${refusal.limit} option). Answer or finish an open question, or retry after ${seconds} s.`,
  );
}
