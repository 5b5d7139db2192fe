/**
 * The answers an out-of-band channel (the page by link, the app in the chat) finds for a call made
 * again: given elsewhere between two calls, kept in the page store, read as in-band answers are.
 */
import type { OutOfBandChannel } from '../channels/channel.js';
import type { RoundServices } from '../context.js';
import { readCountedAnswer } from '../questions/attempts.js';
import type { ElicitationResult } from '../questions/markers.js';
import { RejectedAnswer } from '../questions/read.js';
import { askedAgain, shownWith } from '../questions/reask.js';
import type { Question } from '../questions/render.js';
import type { FormPages } from './pages.js';
import type { AnswerPageBinding, PageAnswer } from './store.js';

/**
 * The `recall` of an out-of-band channel over pages: the answer given for a question's binding,
 * read as an in-band one and counted against the attempts of the person `ctx` acts for (an answer
 * the author's check refuses is dropped: the question is asked again); `asked`, the question as its hand-off shows it: asked again with the reason above its
 * message (as in-band) when this round refused its answer; and `keepTaken`, which puts back the
 * answers this round took when it hands off another question, so the call made after finds them all.
 */
export function answersElsewhere(
  round: RoundServices,
  pages: Pick<FormPages, 'take' | 'keep'>,
  bindingOf: (question: Question) => AnswerPageBinding,
): Pick<OutOfBandChannel, 'recall'> & { asked(question: Question): Question; keepTaken(): Promise<void> } {
  const taken: Array<{ readonly question: Question; readonly answer: PageAnswer }> = [];
  /** Why this round refused the answer to a question, by its key. */
  const refused = new Map<string, string>();
  return {
    async recall(question): Promise<ElicitationResult<unknown> | undefined> {
      const answer = await pages.take(bindingOf(question));
      if (answer === undefined) return undefined;
      let read: ElicitationResult<unknown>;
      try {
        read = await readCountedAnswer(round, question, answer);
      } catch (error) {
        // The author's check refused it: asked again on a new page (the answer was single use).
        if (!(error instanceof RejectedAnswer)) throw error;
        refused.set(question.key, error.reason);
        return undefined;
      }
      taken.push({ question, answer });
      return read;
    },
    asked(question) {
      const reason = refused.get(question.key);
      return reason === undefined ? question : shownWith(question, askedAgain(question.rendered.request, reason));
    },
    async keepTaken() {
      for (const done of taken.splice(0)) await pages.keep(bindingOf(done.question), done.question, done.answer);
    },
  };
}
