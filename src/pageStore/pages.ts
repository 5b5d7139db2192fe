/**
 * Questions kept for a person who answers off the wire (on the answer page, in an app), as the
 * channels use them: a page is opened in the store for the caller and question that asked, bound
 * to them ({@link pageBindingOf}), and its answer is taken once by the same binding.
 */
import canonicalize from 'canonicalize';

import type { Caller } from '../channels/channel.js';
import { requestClientOf } from '../channels/requestClient.js';
import type { Question } from '../questions/render.js';
import { utf8 } from '../state/bytes.js';
import { defaultPrimitives } from '../state/primitives.js';
import type { AnswerPage, AnswerPageBinding, AnswerPageQuestion, AnswerPageStore, PageAnswer } from './store.js';
import { newPageId } from './store.js';

const digests = defaultPrimitives();

function pageDigest(text: string): string {
  return digests.encodeBase64url(digests.sha256([utf8(text)]));
}

/**
 * The binding of the page asking `question` for `caller`: its principal, its tool, the SHA-256 of
 * its arguments in RFC 8785 canonical form (absent: `{}`), the question's digest, and the digest of
 * `secret` — what only the asking caller holds (a per-call random value, a session id), so no other
 * caller making the same call finds the page or its answer. No `secret`: the principal alone binds it.
 */
export function pageBindingOf(caller: Caller, secret: string | undefined, question: Question): AnswerPageBinding {
  return {
    principal: caller.principal,
    tool: caller.target,
    argumentsDigest: pageDigest(canonicalize(caller.arguments ?? {}) ?? '{}'),
    questionDigest: question.rendered.digest,
    ...(secret !== undefined && { secretDigest: pageDigest(`mcp-resolve answer page\n${secret}`) }),
  };
}

/** The message of a form question. */
export function formMessageOf(question: Question): string {
  const { request } = question.rendered;
  return request.method === 'elicitation/create' ? request.params.message : '';
}

/** What a page shows for `question`: its message and its wire `requestedSchema`. */
export function pageQuestionOf(question: Question): AnswerPageQuestion {
  const { request } = question.rendered;
  const requestedSchema =
    request.method === 'elicitation/create' && 'requestedSchema' in request.params
      ? request.params.requestedSchema
      : {};
  return { message: formMessageOf(question), requestedSchema };
}

/** A store's pages, as the channels use them. */
export interface FormPages {
  /**
   * The open page asking `question` under `binding` (the same page until it is answered), counted
   * against the caller's principal, else the client its host saw `request` come from.
   */
  openPage(binding: AnswerPageBinding, question: Question, request: Request | undefined): Promise<AnswerPage>;
  /** The answer given on the page of `binding`, once, as an in-band client sends it; `undefined` when none yet. */
  take(binding: AnswerPageBinding): Promise<PageAnswer | undefined>;
  /** Puts a taken `answer` back on the page of `binding` (the call went on to ask another question on a page). */
  keep(binding: AnswerPageBinding, question: Question, answer: PageAnswer): Promise<void>;
}

/** The {@link FormPages} over `store`. */
export function createFormPages(store: AnswerPageStore): FormPages {
  return {
    openPage: (binding, question, request) =>
      store.open(binding, pageQuestionOf(question), pageClientOf(binding, request)),
    take: (binding) => store.take(binding),
    async keep(binding, question, answer) {
      const page = await store.open(binding, pageQuestionOf(question));
      await store.submit(page.pageId, answer);
    },
  };
}

/**
 * Whom a page counts against for `maxPagesPerClient`: the principal; else the address its host saw
 * the request come from; else, behind a proxy the host cannot see past, no client (a key of its
 * own: only the count and byte budgets bound it, as they bound legacy sessions there); else (in
 * process, or a host that names no client) every anonymous caller together.
 */
function pageClientOf(binding: AnswerPageBinding, request: Request | undefined): string | undefined {
  if (binding.principal !== undefined) return `principal:${binding.principal}`;
  const client = requestClientOf(request);
  if (client === undefined) return undefined;
  return 'address' in client ? `address:${client.address}` : `page:${newPageId()}`;
}
