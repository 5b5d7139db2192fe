/**
 * Answer pages, as the questions layer sees them: a form question meeting a client that shows no
 * forms is asked on a page the server hosts instead of failing with -32021 (unless it is marked
 * `inBandOnly`: then it fails as without pages). A client that declares URL elicitation gets a URL
 * question to the page (same key: its answer on the next round is read from the page); a client
 * with no elicitation gets a tool result with the link, and calling the tool again with the same
 * arguments finds the page's answer. The pages themselves (store, HTML, handler) are the
 * `answerPage` hosting option's; this file only knows the {@link FormPages} seam.
 */
import type { ClientCapabilities, InputRequest } from '@modelcontextprotocol/server';
import canonicalize from 'canonicalize';

import { ToolError } from '../errors.js';
import type { RequestBinding } from '../state/binding.js';
import { utf8 } from '../state/bytes.js';
import { defaultPrimitives } from '../state/primitives.js';
import type { Question } from './render.js';
import { checkedUrl } from './urlQuestion.js';

/** The call a page belongs to: only the same principal, tool and arguments find its answer. */
export interface PageCall {
  readonly principal: string | undefined;
  readonly tool: string;
  /** A digest of the call's arguments. */
  readonly argumentsDigest: string;
}

/**
 * The page call of a request bound as `binding` (what its sealed state is bound to): its principal,
 * its target (the tool) and the SHA-256 of its arguments in RFC 8785 canonical form (absent: `{}`).
 */
export function pageCallOf(binding: Pick<RequestBinding, 'target' | 'arguments' | 'principal'>): PageCall {
  const digests = defaultPrimitives();
  const canonical = canonicalize(binding.arguments ?? {}) ?? '{}';
  return {
    principal: binding.principal,
    tool: binding.target,
    argumentsDigest: digests.encodeBase64url(digests.sha256([utf8(canonical)])),
  };
}

/** Answer pages as the questions layer uses them. */
export interface FormPages {
  /** The absolute URL of the page asking `question` for `call` (the same page until it is answered); `requestUrl` gives the origin when none is configured. */
  open(call: PageCall, question: Question, requestUrl: string | undefined): Promise<string>;
  /** The answer given on that page, once, as an in-band client sends it (`{ action, content? }`); `undefined` when none yet. */
  take(call: PageCall, question: Question): Promise<unknown>;
  /** Puts a taken `answer` back for the same call and question (the call went on to ask another question on a page). */
  keep(call: PageCall, question: Question, answer: unknown): Promise<void>;
}

/** The pages of one call (what a strategy is given when the server hosts answer pages). */
export interface CallPages {
  readonly pages: FormPages;
  readonly call: PageCall;
}

/** The key of a round's answer pages on its context (set when the server hosts pages), for strategies built by a handler (`journaled`). */
export const CALL_PAGES = Symbol('mcp-resolve.call-pages');

/** The answer pages of the call `ctx` belongs to, when the server hosts them. */
export function callPagesIn(ctx: object): CallPages | undefined {
  return (ctx as { readonly [CALL_PAGES]?: () => CallPages })[CALL_PAGES]?.();
}

/** How a form question reaches a client that shows no forms. */
export type PageChannel = 'url' | 'link';

/**
 * The page channel for `question` on a client that declared `declared`: `undefined` when the
 * question is not a form question, is marked `inBandOnly`, or the client shows forms (it is asked
 * in-band, as always, and the capability gate refuses a client that cannot answer it).
 */
export function pageChannelOf(declared: ClientCapabilities | undefined, question: Question): PageChannel | undefined {
  const { request } = question.rendered;
  if (request.method !== 'elicitation/create' || request.params.mode === 'url') return undefined;
  if ('options' in question.ask && question.ask.options.inBandOnly === true) return undefined;
  const elicitation = declared?.elicitation;
  if (elicitation === undefined) return 'link';
  // A bare `elicitation: {}` predates modes and means form support (as the capability gate reads it).
  if (elicitation.form !== undefined || elicitation.url === undefined) return undefined;
  return 'url';
}

/** The URL question that sends the person to the page of form question `question`, under its key. */
export function pageUrlRequest(question: Question, url: string, elicitationId: string): InputRequest {
  return {
    method: 'elicitation/create',
    params: { mode: 'url', message: formMessageOf(question), url: checkedUrl(url), elicitationId },
  };
}

/**
 * The tool result that hands the person the link (an `isError` result, never a protocol error): in
 * words a model passes on, to open the page, answer, then ask to try again.
 */
export function pageLinkError(question: Question, url: string): ToolError {
  return new ToolError(
    `Before this can go on, the person must answer a question on a web page. Show them this link and ask them to open it: ${checkedUrl(url)}\n` +
      `The question: ${formMessageOf(question)}\n` +
      'Once they have answered there, call this tool again with the same arguments to continue.',
  );
}

/** The message of a form question. */
export function formMessageOf(question: Question): string {
  const { request } = question.rendered;
  return request.method === 'elicitation/create' ? request.params.message : '';
}

/** Whether a URL answer from the client lets the page's answer be read (the person agreed to go there). */
export function acceptedUrlAnswer(response: unknown): boolean {
  return typeof response === 'object' && response !== null && (response as { action?: unknown }).action === 'accept';
}
