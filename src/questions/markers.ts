/**
 * Request markers: what a resolver returns to ask the client for something instead of computing
 * a value itself. The engine turns a marker into an `input_required` entry (modern era) or a
 * server-to-client push (legacy era); the consumer receives the answer.
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  Root,
  StandardSchemaV1,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import { checkedUrl } from './urlQuestion.js';

const ASK_KINDS: ReadonlySet<unknown> = new Set<AskKind>(['elicit', 'elicitUrl', 'sample', 'roots']);

/** A question for the human: a form-mode elicitation whose accepted content is `T`. */
export interface Elicit<T> {
  readonly '~kind': 'elicit';
  readonly message: string;
  readonly schema: StandardSchemaWithJSON;
  /** How the question is asked: again after a bad answer, and whether only in-band (see {@link ElicitOptions}). */
  readonly options: ElicitOptions<T>;
  /** Type-only slot carrying the accepted value's type. */
  readonly '~value'?: T;
}

/** How many times a question is asked, in all, before a bad answer fails the call (the first asking included). */
export const DEFAULT_ANSWER_ATTEMPTS = 3;

/**
 * Options of {@link elicit}. Re-asking: an accepted answer that fails the schema, or that `check`
 * rejects, is not used: the same question is asked again with the reason shown above it (legacy:
 * another push; modern: another round), up to `attempts` times in all; then the call fails with the
 * last reason. It stays one question: one key, one pin, one consumer value.
 */
export interface ElicitOptions<T> {
  /** The author's own check of an answer that passed the schema: a reason to show the person, or `undefined` to accept. */
  check?(value: T): string | undefined | Promise<string | undefined>;
  /** How many times the question may be asked in all (1 = never again). @default 3 */
  readonly attempts?: number;
  /** Keeps the question off the answer page (the server's `answerPage` option): a client that shows no forms gets the -32021 capability error, as with the page off, not a URL question to the page or a link in the result. For a question the person must answer in the client itself. @default false */
  readonly inBandOnly?: boolean;
}

/**
 * A URL-mode question: the person is sent to `url` (a page the server serves: a payment, a
 * credential, an OAuth consent) instead of typing into a form, so the sensitive input never passes
 * through the client. Accepting means the person agreed to go there; the consumer receives the
 * elicitation id the page's work is filed under.
 */
export interface ElicitUrl {
  readonly '~kind': 'elicitUrl';
  readonly message: string;
  readonly url: string;
  /** The id given to {@link elicitUrl}'s `options.elicitationId`; absent, the library assigns a random one per call. */
  readonly elicitationId?: string;
  /** The author's hook for reporting the page step's completion (see {@link elicitUrl}'s `options.onAsked`). */
  readonly onAsked?: (complete: CompleteElicitation) => void;
}

/**
 * Sends `notifications/elicitation/complete` for one URL question's elicitation id, on the legacy
 * (2025-11-25) connection that asked it. Call it from the page's handler once the out-of-band step
 * is done; it resolves when the notification is handed to the transport.
 */
export type CompleteElicitation = () => Promise<void>;

/** What a consumer receives for an accepted URL-mode question. */
export interface UrlElicitation {
  readonly elicitationId: string;
}

/**
 * A request to the client's LLM (`sampling/createMessage`).
 * @deprecated What {@link sample} returns; SEP-2577 deprecates sampling as of protocol version 2026-07-28 (it still works, and may be removed no earlier than the first revision after 2027-07-28): call your own LLM provider's API from the server instead.
 */
export interface Sample {
  readonly '~kind': 'sample';
  readonly params: CreateMessageRequestParams;
}

/**
 * A request for the client's roots (`roots/list`).
 * @deprecated What {@link listRoots} returns; SEP-2577 deprecates roots as of protocol version 2026-07-28 (it still works, and may be removed no earlier than the first revision after 2027-07-28): take the paths as tool arguments or from the server's configuration instead.
 */
export interface ListRoots {
  readonly '~kind': 'roots';
}

/** Any request marker a resolver may return. */
export type Ask = Elicit<unknown> | ElicitUrl | Sample | ListRoots;

/** The kind of question a marker asks: its `'~kind'` field, a plain string field so a marker made by another copy of the package is recognised too, tilde-prefixed (as Standard Schema's `'~standard'`) so no value a resolver computes has it by chance. */
export type AskKind = Ask['~kind'];

/** The kinds of question a resolver's return type `R` asks (`never` for a plain value). */
export type AskKindsOf<R> = R extends Ask ? R['~kind'] : never;

/**
 * What a consumer receives for a sampling question.
 * @deprecated The answer to {@link sample}; SEP-2577 deprecates sampling as of protocol version 2026-07-28 (it still works, and may be removed no earlier than the first revision after 2027-07-28): read your own LLM provider's response instead.
 */
export type SampleResult = CreateMessageResult | CreateMessageResultWithTools;

/**
 * The text of a sampling result: its text blocks joined by newlines (`content` is one block, or an
 * array of blocks when the request allowed tools); '' when it has no text.
 * @deprecated Reads the answer to {@link sample}; SEP-2577 deprecates sampling as of protocol version 2026-07-28 (it still works, and may be removed no earlier than the first revision after 2027-07-28): read your own LLM provider's response instead.
 */
export function sampledText(result: SampleResult): string {
  const blocks: readonly unknown[] = Array.isArray(result.content) ? result.content : [result.content];
  return blocks
    .flatMap((block) =>
      typeof block === 'object' && block !== null && 'type' in block && block.type === 'text' && 'text' in block
        ? [String(block.text)]
        : [],
    )
    .join('\n');
}

/** What a form field can hold: a primitive, or an array of primitives (a multi-select). */
type FormFieldValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** The named fields of `T` a form cannot carry (a nested object, a date, …). */
type NestedFields<T> = {
  [K in keyof T]-?: string extends K ? never : T[K] extends FormFieldValue ? never : K;
}[keyof T];

/**
 * `unknown` when a form's content type `T` is flat; otherwise a type naming the fields that are not,
 * so `elicit(message, schema)` with a nested form does not compile (elicitation carries flat forms only).
 */
export type FlatForm<T> = unknown extends T
  ? unknown
  : [NestedFields<T>] extends [never]
    ? unknown
    : {
        readonly 'elicit(): a form holds flat fields only (string, number, boolean, an enum or an array of them); not flat': NestedFields<T>;
      };

/**
 * Asks the human `message`, expecting content that matches `schema`: a flat object schema (a nested
 * object or a date field is a compile error naming the field).
 */
export function elicit<TSchema extends StandardSchemaWithJSON>(
  message: string,
  schema: TSchema & FlatForm<StandardSchemaV1.InferOutput<TSchema>>,
  options: ElicitOptions<StandardSchemaV1.InferOutput<TSchema>> = {},
): Elicit<StandardSchemaV1.InferOutput<TSchema>> {
  return formQuestion(message, schema, options);
}

/** {@link elicit} without the compile-time flat-form check, for wrappers generic over the schema (which check their own callers). */
export function formQuestion<T>(
  message: string,
  schema: StandardSchemaWithJSON,
  options: ElicitOptions<T> = {},
): Elicit<T> {
  const { attempts } = options;
  if (attempts !== undefined && (!Number.isInteger(attempts) || attempts < 1)) {
    throw new McpResolveError(
      'invalid_declaration',
      `elicit(): options.attempts must be a whole number of 1 or more (got ${String(attempts)}).`,
      { data: { kind: 'question', field: 'options.attempts' } },
    );
  }
  return { '~kind': 'elicit', message, schema, options };
}

/**
 * Asks the person to visit `url` (URL-mode elicitation, for input that must not pass through the
 * client). Needs the client's `elicitation.url` capability. Refuses at once a URL that is not
 * absolute `https:` (`http:` only for localhost, 127.0.0.1 and [::1]), or that carries a user name,
 * a password or a control character. The elicitation id is random per call unless given.
 */
export function elicitUrl(
  message: string,
  url: string,
  options: {
    /**
     * The id the client reports completion under. When omitted, the library assigns a random id per call,
     * kept for the rest of the call (in the sealed state on 2026-07-28, on the task for a task): unique.
     */
    readonly elicitationId?: string;
    /**
     * Called each time the question is sent on a 2025-11-25 connection, before the client answers,
     * with a {@link CompleteElicitation} bound to that connection and this elicitation id: keep it
     * where the page's handler (which runs outside any MCP request) finds it, and call it when the
     * person finished there. Never called on 2026-07-28: that revision has no completion
     * notification, so there is nothing to send (the client learns the outcome from the next round).
     */
    readonly onAsked?: (complete: CompleteElicitation) => void;
  } = {},
): ElicitUrl {
  const href = checkedUrl(url);
  const { onAsked, elicitationId } = options;
  return {
    '~kind': 'elicitUrl',
    message,
    url: href,
    ...(elicitationId !== undefined && { elicitationId }),
    ...(onAsked && { onAsked }),
  };
}

/**
 * Asks the client's LLM to complete `params`. Nothing changes on the wire: the client is asked as before.
 * @deprecated SEP-2577 deprecates sampling as of protocol version 2026-07-28 (it still works, and may be removed no earlier than the first revision after 2027-07-28): call your own LLM provider's API from the server, or ask the person with {@link elicit}.
 */
export function sample(params: CreateMessageRequestParams): Sample {
  return { '~kind': 'sample', params };
}

/**
 * Asks the client for its roots; the consumer receives the list of roots. Nothing changes on the wire: the client is asked as before.
 * @deprecated SEP-2577 deprecates roots as of protocol version 2026-07-28 (it still works, and may be removed no earlier than the first revision after 2027-07-28): take the paths as tool arguments or from the server's configuration.
 */
export function listRoots(): ListRoots {
  return { '~kind': 'roots' };
}

/** Whether `value` is a request marker. */
export function isAsk(value: unknown): value is Ask {
  return typeof value === 'object' && value !== null && '~kind' in value && ASK_KINDS.has(value['~kind']);
}

/** The kind of question `ask` asks. */
export function askKind(ask: Ask): AskKind {
  return ask['~kind'];
}

/** The value a consumer receives for a resolver that returned `R` (markers replaced by their answers). */
export type Answered<R> =
  R extends Elicit<infer T>
    ? T
    : R extends ElicitUrl
      ? UrlElicitation
      : R extends Sample
        ? SampleResult
        : R extends ListRoots
          ? Root[]
          : R;

/** The result of a question as an outcome consumer sees it: accepted with a value, declined, or cancelled. */
export type ElicitationResult<T> =
  { readonly action: 'accept'; readonly value: T } | { readonly action: 'decline' } | { readonly action: 'cancel' };
