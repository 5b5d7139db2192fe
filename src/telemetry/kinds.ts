/** A question's kind as an observer names it. */
import { askKind, type Ask } from '../questions/markers.js';
import type { QuestionKind } from './hooks.js';

const KINDS = { elicit: 'elicit', elicitUrl: 'url', sample: 'sample', roots: 'roots' } as const;

/** `elicit`, `url`, `sample` or `roots`. */
export function questionKind(ask: Ask): QuestionKind {
  return KINDS[askKind(ask)];
}
