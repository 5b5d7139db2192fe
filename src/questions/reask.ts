/**
 * Asking again after a rejected answer (see `ElicitOptions`): how many times a question may be
 * asked, and the request that asks it again with the reason shown to the person above the question.
 */
import type { InputRequest } from '@modelcontextprotocol/server';

import type { Ask } from './markers.js';
import { askKind, DEFAULT_ANSWER_ATTEMPTS } from './markers.js';
import type { Question } from './render.js';

/** How many times `ask` may be asked in all; only a form question is ever asked again. */
export function attemptsOf(ask: Ask): number {
  if (askKind(ask) !== 'elicit') return 1;
  return (ask as Extract<Ask, { options: unknown }>).options.attempts ?? DEFAULT_ANSWER_ATTEMPTS;
}

/** `request` asked again: the same question and form, with `reason` shown above the message. */
export function askedAgain(request: InputRequest, reason: string): InputRequest {
  if (request.method !== 'elicitation/create') return request;
  return { ...request, params: { ...request.params, message: `${reason}\n\n${request.params.message}` } };
}

/**
 * `question` shown with `request` (as a channel that shows the question itself, a page or an app,
 * shows it asked again): its key, marker and digest are unchanged, so its answers stay bound to it.
 */
export function shownWith(question: Question, request: InputRequest): Question {
  return { ...question, rendered: { ...question.rendered, request } };
}
