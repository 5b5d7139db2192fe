/**
 * The answer page store: a page is opened for one asking of one form question, bound to the call
 * that asked (principal, tool, arguments digest, question digest) and counted against the client
 * that made the call; its id is 128 random bits, never reused; it takes one answer (stored and
 * closed in one step), and that answer is taken once by the same binding, then the page is gone.
 * Everything expires after the TTL. Pages and answers are bounded in bytes, and the backend bounds
 * how many pages one client and all clients hold (a refusal is a `ToolError` naming the bound).
 */
import canonicalize from 'canonicalize';

import { ToolError } from '../errors.js';
import type { FormAnswer, FormQuestion } from '../form/submission.js';
import { positiveInteger } from '../optionChecks.js';
import { DEFAULT_MAX_ANSWER_BYTES } from '../questions/bounds.js';
import { isRecord } from '../ownKeys.js';
import { jsonBytes, utf8 } from '../state/bytes.js';
import { defaultPrimitives } from '../state/primitives.js';
import type { AnswerPageBackend, AnswerPageRefusal } from './backend.js';
import { refusalError } from './backend.js';
import { createMemoryAnswerPageBackend } from './memoryBackend.js';

/** The call a page answers for: only the same principal, tool, arguments and question find its answer. */
export interface AnswerPageBinding {
  /** The authenticated principal who was asked (`undefined`: an anonymous server). */
  readonly principal: string | undefined;
  readonly tool: string;
  /** A digest of the call's arguments. */
  readonly argumentsDigest: string;
  /** The digest of the question as rendered (what an in-band answer is pinned to). */
  readonly questionDigest: string;
  /** A digest of what only the asking caller holds (a per-call secret, a session id); absent: the principal alone binds the page. */
  readonly secretDigest?: string;
}

/** The form question a page shows. */
export type AnswerPageQuestion = FormQuestion;

/** An open page. */
export interface AnswerPage extends AnswerPageBinding, AnswerPageQuestion {
  readonly pageId: string;
  /** When it expires, in ms since the epoch. */
  readonly expiresAt: number;
}

/** An answer given on a page, as an in-band client would send it. */
export type PageAnswer = FormAnswer;

/** Options of {@link createAnswerPageStore}. */
export interface AnswerPageStoreOptions {
  /** Where pages live. @default createMemoryAnswerPageBackend({ now }) (one process; a fleet shares one, e.g. over Redis) */
  readonly backend?: AnswerPageBackend;
  /** How long a page stays open, and then how long its answer waits to be taken, in ms. @default 900_000 (15 minutes) */
  readonly ttlMs?: number;
  /** Largest page (message and schema, bytes of JSON). @default 65_536 */
  readonly maxPageBytes?: number;
  /** Largest answer (bytes of JSON), as the in-band `maxAnswerBytes`. @default 65_536 */
  readonly maxAnswerBytes?: number;
  /** Clock in ms since the epoch. @default Date.now */
  readonly now?: () => number;
}

/** Pages and their answers. */
export interface AnswerPageStore {
  /**
   * The open page of `binding` if it has one (no answer yet), else a new page for `question`,
   * counted against `client` (the caller's principal, else its address; default: the binding's
   * principal, else one quota all anonymous callers share). Past a bound of the backend: a `ToolError`
   * naming it and when to retry.
   */
  open(binding: AnswerPageBinding, question: AnswerPageQuestion, client?: string): Promise<AnswerPage>;
  /** The page `pageId` while it is open (known, not expired, not answered), else `undefined`. */
  page(pageId: string): Promise<AnswerPage | undefined>;
  /**
   * Stores the one answer of an open page and closes it, in one step; `false` when it is not open
   * (answered already, expired, unknown). Throws, leaving the page open, when the answer could not
   * be stored (the backend failed, or its `maxHeldBytes` is reached: a `ToolError`).
   */
  submit(pageId: string, answer: PageAnswer): Promise<boolean>;
  /** The answer given for `binding`, once: it and its page are gone afterwards. */
  take(binding: AnswerPageBinding): Promise<PageAnswer | undefined>;
  /** The store's TTL and bounds, as resolved. */
  readonly limits: { readonly ttlMs: number; readonly maxPageBytes: number; readonly maxAnswerBytes: number };
}

/** The default lifetime of a page. */
export const DEFAULT_ANSWER_PAGE_TTL_MS = 15 * 60 * 1000;

/** The default largest page, in bytes of JSON. */
export const DEFAULT_MAX_ANSWER_PAGE_BYTES = 65_536;

/** A page id: 22 base64url characters, 128 random bits. */
const PAGE_ID = /^[A-Za-z0-9_-]{22}$/;

/** Whether `pageId` has the shape of a page id (anything else is refused before the store is asked). */
export function isPageId(pageId: string): boolean {
  return PAGE_ID.test(pageId);
}

const storeCrypto = defaultPrimitives();

/** A fresh page id (128 bits from `crypto.getRandomValues`). */
export function newPageId(): string {
  return storeCrypto.encodeBase64url(crypto.getRandomValues(new Uint8Array(16)));
}

/** The digest a binding is filed under. */
export function bindingDigest(binding: AnswerPageBinding): string {
  const { principal, tool, argumentsDigest, questionDigest, secretDigest } = binding;
  const canonical =
    canonicalize({
      principal: principal ?? null,
      tool,
      argumentsDigest,
      questionDigest,
      secret: secretDigest ?? null,
    }) ?? '';
  return storeCrypto.encodeBase64url(storeCrypto.sha256([utf8(canonical)]));
}

function parsed(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function asAnswer(record: Record<string, unknown> | undefined): PageAnswer | undefined {
  if (record === undefined) return undefined;
  if (record.action === 'decline' || record.action === 'cancel') return { action: record.action };
  if (record.action === 'accept' && isRecord(record.content)) return { action: 'accept', content: record.content };
  return undefined;
}

function asPage(record: Record<string, unknown> | undefined): AnswerPage | undefined {
  if (record === undefined) return undefined;
  const { pageId, expiresAt, message, requestedSchema, tool, principal, argumentsDigest, questionDigest } = record;
  const strings = [pageId, message, tool, argumentsDigest, questionDigest].every((value) => typeof value === 'string');
  if (!strings || typeof expiresAt !== 'number' || !isRecord(requestedSchema)) return undefined;
  if (principal !== undefined && typeof principal !== 'string') return undefined;
  return record as unknown as AnswerPage;
}

/** The client a page counts against when the caller names none. */
const ANONYMOUS_CLIENT = 'anonymous';

function refused<T>(outcome: T | AnswerPageRefusal): outcome is AnswerPageRefusal {
  return typeof outcome === 'object' && outcome !== null && 'limit' in outcome;
}

/** Creates the answer page store over `options.backend` (in memory by default). */
export function createAnswerPageStore(options: AnswerPageStoreOptions = {}): AnswerPageStore {
  const api = 'createAnswerPageStore()';
  const check = (option: 'ttlMs' | 'maxPageBytes' | 'maxAnswerBytes', fallback: number): number =>
    positiveInteger(api, option, options[option], fallback);
  const limits = {
    ttlMs: check('ttlMs', DEFAULT_ANSWER_PAGE_TTL_MS),
    maxPageBytes: check('maxPageBytes', DEFAULT_MAX_ANSWER_PAGE_BYTES),
    maxAnswerBytes: check('maxAnswerBytes', DEFAULT_MAX_ANSWER_BYTES),
  };
  const now = options.now ?? Date.now;
  const backend = options.backend ?? createMemoryAnswerPageBackend({ now });

  const live = (pageId: string | undefined, record: string | undefined): AnswerPage | undefined => {
    const stored = asPage(parsed(record));
    if (stored === undefined || stored.pageId !== pageId || stored.expiresAt <= now()) return undefined;
    return stored;
  };

  const create = async (
    binding: AnswerPageBinding,
    question: AnswerPageQuestion,
    client: string,
  ): Promise<AnswerPage> => {
    const expiresAt = now() + limits.ttlMs;
    const bindingKey = bindingDigest(binding);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const opened: AnswerPage = { ...binding, ...question, pageId: newPageId(), expiresAt };
      const record = JSON.stringify(opened);
      const bytes = utf8(record).length;
      if (bytes > limits.maxPageBytes) {
        throw new ToolError(
          `Answer pages: the question is too large for a page (got ${bytes} bytes; the most is ${limits.maxPageBytes}, the store's maxPageBytes option). Shorten its message or its form.`,
        );
      }
      const outcome = await backend.open({ pageId: opened.pageId, record, bindingKey, client, expiresAt });
      if (refused(outcome)) throw refusalError(outcome);
      if (outcome === 'opened') return opened;
    }
    throw new ToolError('Answer pages: no fresh page id could be stored. Try again.');
  };

  return {
    limits,
    async page(pageId) {
      return isPageId(pageId) ? live(pageId, await backend.page(pageId)) : undefined;
    },
    async open(binding, question, client = binding.principal ?? ANONYMOUS_CLIENT) {
      const record = await backend.pageFor(bindingDigest(binding));
      const existing = asPage(parsed(record));
      return live(existing?.pageId, record) ?? create(binding, question, client);
    },
    async submit(pageId, answer) {
      if (!isPageId(pageId) || jsonBytes(answer) > limits.maxAnswerBytes) return false;
      // The answer waits a whole TTL to be taken, however late in the page's life it came.
      const outcome = await backend.answer(pageId, JSON.stringify(answer), now() + limits.ttlMs);
      if (refused(outcome)) throw refusalError(outcome);
      return outcome === 'stored';
    },
    async take(binding) {
      return asAnswer(parsed(await backend.take(bindingDigest(binding))));
    },
  };
}
