/**
 * Checking a page's submission as an in-band answer is checked: the form is read into the content
 * a client would send, held to `maxAnswerBytes`, and checked against the question the server stored
 * (its wire `requestedSchema`) by the library's own field check (`fieldCheck.ts`: nothing compiled,
 * patterns in linear time). The author's own schema and `check` run when the call takes the answer,
 * as for any in-band answer. A refusal names the fields to fix, in the page's words.
 */
import { jsonBytes } from '../state/bytes.js';
import { refusedFields } from './fieldCheck.js';
import { fieldErrorText } from './fieldMessages.js';
import { formFields, readSubmission } from './fields.js';

/** A form question as its form shows it: its message and its wire `requestedSchema` (a flat object schema). */
export interface FormQuestion {
  readonly message: string;
  readonly requestedSchema: Readonly<Record<string, unknown>>;
}

/** An answer given on a form, as an in-band client would send it. */
export type FormAnswer =
  | { readonly action: 'accept'; readonly content: Readonly<Record<string, unknown>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** The outcome of checking a submission. */
export type CheckedSubmission =
  | { readonly ok: true; readonly answer: FormAnswer }
  | {
      readonly ok: false;
      /** Why, for the person (absent when the field errors say it all). */
      readonly summary: string | undefined;
      /** Field name → what to fix. */
      readonly fieldErrors: Readonly<Record<string, string>>;
    };

/**
 * Checks a submission of `question`'s form: decline and cancel need nothing; an accepted answer must
 * fit every field of the question's wire schema and stay within `maxAnswerBytes`.
 */
export function checkSubmission(
  question: FormQuestion,
  form: URLSearchParams,
  maxAnswerBytes: number,
): CheckedSubmission {
  const action = form.get('action');
  if (action === 'decline' || action === 'cancel') return { ok: true, answer: { action } };
  if (action !== 'accept') return { ok: false, summary: 'Choose Send answer, Decline or Cancel.', fieldErrors: {} };
  const fields = formFields(question.requestedSchema);
  const { content, unreadable } = readSubmission(fields, form);
  if (Object.keys(unreadable).length > 0) return { ok: false, summary: undefined, fieldErrors: unreadable };
  const bytes = jsonBytes({ action: 'accept', content });
  if (bytes > maxAnswerBytes) {
    return {
      ok: false,
      summary: `The answer is too long (${bytes} bytes; this server takes at most ${maxAnswerBytes}). Shorten it.`,
      fieldErrors: {},
    };
  }
  const refused = new Set(refusedFields(fields, content));
  if (refused.size === 0) return { ok: true, answer: { action: 'accept', content } };
  const named = fields.filter((field) => refused.has(field.name));
  const fieldErrors = Object.fromEntries(
    named.map((field) => [
      field.name,
      fieldErrorText(field, Object.hasOwn(content, field.name) ? content[field.name] : undefined),
    ]),
  );
  const summary = `The answer does not fit the form: check ${named.map((field) => `"${field.label}"`).join(', ')}.`;
  return { ok: false, summary, fieldErrors };
}
