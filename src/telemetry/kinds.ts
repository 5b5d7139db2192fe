/** A question's kind as an observer names it. */
import { QUESTION_KINDS } from '../questions/kinds.js';
import { askKind, type Ask } from '../questions/markers.js';
import type { QuestionKind } from './hooks.js';

/** `elicit`, `url`, `sample` or `roots`. */
export function questionKind(ask: Ask): QuestionKind {
  return QUESTION_KINDS[askKind(ask)].observed;
}
