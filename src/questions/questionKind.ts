/** A question's kind as an observer names it. */
import { QUESTION_KINDS } from './kinds.js';
import { askKind, type Ask } from './markers.js';

/** `elicit`, `url`, `sample` or `roots`. */
export function questionKind(ask: Ask): string {
  return QUESTION_KINDS[askKind(ask)].observed;
}
