/** Scripted answers shared by the testing and hosting suites. */

import type { ScriptedAnswers } from '../../src/testing/index.js';

/** Answers every kind of question: name 'Ann', a one-word poem, one root. */
export const answers: Required<ScriptedAnswers> = {
  elicit: () => ({ action: 'accept', content: { name: 'Ann' } }),
  sample: () => ({ role: 'assistant', content: { type: 'text', text: 'roses' }, model: 'scripted' }),
  roots: () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }),
};

/** The text of a tool result's first content block. */
export function firstText(result: { content?: unknown }): string {
  const content = result.content;
  if (!Array.isArray(content)) return '';
  const first: unknown = content[0];
  return typeof first === 'object' && first !== null && 'text' in first ? String(first.text) : '';
}
