/**
 * Every kind of question, described once: the request that asks it, the kind of answer that
 * answers it, and how messages, observers and journaled handlers name it. A new kind is one more
 * entry here (plus its marker in markers.ts and its wire form in render.ts).
 */
import type { AskKind } from './markers.js';

/** One kind of question. */
export interface QuestionKindInfo {
  /** The JSON-RPC method that asks it. */
  readonly method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  /** The kind of answer that answers it (the SDK's `inputResponse` view kind). */
  readonly answerKind: 'elicit' | 'sampling' | 'roots';
  /** The word for it in messages: "a non-elicitation response to its elicitation question". */
  readonly word: string;
  /** What an answer of this kind is called in messages. */
  readonly answerName: string;
  /** The name an observer (`mcp-resolve/otel`) gives it. */
  readonly observed: 'elicit' | 'url' | 'sample' | 'roots';
  /** How a journaled handler asks it, for messages. */
  readonly journaledCall: string;
  /** The client capability it needs, as the -32021 message names it. */
  readonly capability: string;
}

/** The kinds, by marker kind. */
export const QUESTION_KINDS: Readonly<Record<AskKind, QuestionKindInfo>> = {
  elicit: {
    method: 'elicitation/create',
    answerKind: 'elicit',
    word: 'elicitation',
    answerName: 'an elicitation result',
    observed: 'elicit',
    journaledCall: 'ctx.elicit()',
    capability: 'elicitation (form mode)',
  },
  elicitUrl: {
    method: 'elicitation/create',
    answerKind: 'elicit',
    word: 'elicitation',
    answerName: 'an elicitation result',
    observed: 'url',
    journaledCall: 'elicitUrl()',
    capability: 'elicitation (URL mode)',
  },
  sample: {
    method: 'sampling/createMessage',
    answerKind: 'sampling',
    word: 'sampling',
    answerName: 'a sampling result',
    observed: 'sample',
    journaledCall: 'ctx.sample()',
    capability: 'sampling',
  },
  roots: {
    method: 'roots/list',
    answerKind: 'roots',
    word: 'roots',
    answerName: 'a roots list',
    observed: 'roots',
    journaledCall: 'ctx.listRoots()',
    capability: 'roots',
  },
};

/** The kind a request method asks (the form kind for elicitation: both elicitation kinds take the same answer). */
export function kindOfMethod(method: QuestionKindInfo['method']): QuestionKindInfo {
  switch (method) {
    case 'elicitation/create':
      return QUESTION_KINDS.elicit;
    case 'sampling/createMessage':
      return QUESTION_KINDS.sample;
    case 'roots/list':
      return QUESTION_KINDS.roots;
  }
}
