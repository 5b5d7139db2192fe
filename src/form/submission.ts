/**
 * Checking a page's submission as an in-band answer is checked: the form is read into the content
 * a client would send, held to `maxAnswerBytes`, and read by the questions layer's `readAnswer`
 * against the question's schema (its wire `requestedSchema`, or the live question when this process
 * asked it, whose own `check` then runs too). A refusal names the fields to fix, in the page's words.
 */
import type { StandardSchemaV1 } from '@modelcontextprotocol/server';
import { fromJsonSchema } from '@modelcontextprotocol/server';

import { answerBytes } from '../questions/bounds.js';
import type { Ask } from '../questions/markers.js';
import { formQuestion } from '../questions/markers.js';
import { readAnswer, RejectedAnswer } from '../questions/read.js';
import { fieldErrorText } from './fieldMessages.js';
import type { FormField } from './fields.js';
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

/** The names of the fields `issues` point at (a validator that reports no paths points at none). */
function issueFields(issues: readonly StandardSchemaV1.Issue[]): Set<string> {
  const names = new Set<string>();
  for (const issue of issues) {
    const first = issue.path?.[0];
    if (first !== undefined) names.add(String(typeof first === 'object' ? first.key : first));
  }
  return names;
}

type JsonSchemaInput = Parameters<typeof fromJsonSchema>[0];

/** Whether `field`'s own part of the wire schema refuses its value (each field checked alone). */
async function fieldRefused(
  requestedSchema: Readonly<Record<string, unknown>>,
  field: FormField,
  content: Record<string, unknown>,
): Promise<boolean> {
  const properties = requestedSchema.properties as Record<string, unknown>;
  const alone = {
    type: 'object',
    properties: { [field.name]: properties[field.name] },
    ...(field.required && { required: [field.name] }),
  };
  const value = Object.hasOwn(content, field.name) ? { [field.name]: content[field.name] } : {};
  const result = await fromJsonSchema(alone as JsonSchemaInput)['~standard'].validate(value);
  return result.issues !== undefined;
}

/**
 * The fields to fix, each with the text the page shows: those the schema's issues point at, else
 * (a validator that names no field, as JSON Schema's does) each field its own part of the schema refuses.
 */
async function fieldErrorsOf(
  ask: Ask,
  page: FormQuestion,
  fields: readonly FormField[],
  content: Record<string, unknown>,
): Promise<Record<string, string>> {
  let names = new Set<string>();
  if ('schema' in ask) {
    const result = await ask.schema['~standard'].validate(content);
    names = issueFields(result.issues ?? []);
  }
  if (names.size === 0) {
    for (const field of fields) if (await fieldRefused(page.requestedSchema, field, content)) names.add(field.name);
  }
  const errors: Record<string, string> = {};
  for (const field of fields) {
    if (names.has(field.name))
      errors[field.name] = fieldErrorText(field, Object.hasOwn(content, field.name) ? content[field.name] : undefined);
  }
  return errors;
}

/** The reason shown above the form: the one `readAnswer` gave, naming the fields when it could not. */
function summaryOf(error: unknown, fields: readonly FormField[], fieldErrors: Record<string, string>): string {
  const reason = error instanceof RejectedAnswer ? error.reason : GENERIC_REASON;
  const named = fields.filter((field) => Object.hasOwn(fieldErrors, field.name));
  if (reason !== GENERIC_REASON || named.length === 0) return reason;
  return `The answer does not fit the form: check ${named.map((field) => `"${field.label}"`).join(', ')}.`;
}

/** `readAnswer`'s reason when the validator named no field. */
const GENERIC_REASON = 'The answer does not fit the form.';

/** The marker a page's question stands for, from the page alone (its wire schema). */
export function askOfPage(page: FormQuestion): Ask {
  return formQuestion(page.message, fromJsonSchema(page.requestedSchema as JsonSchemaInput));
}

/** The channel a form was submitted on, as `readAnswer`'s errors name it (in place of a resolver's label). */
export type FormChannel = 'answer page' | 'question app';

/**
 * Checks a submission of `page`'s form, made on `channel`: decline and cancel need nothing; an
 * accepted answer is read exactly as an in-band one (`readAnswer`), against `ask` (default: the
 * page's own wire schema).
 */
export async function checkSubmission(
  page: FormQuestion,
  form: URLSearchParams,
  maxAnswerBytes: number,
  channel: FormChannel,
  ask: Ask = askOfPage(page),
): Promise<CheckedSubmission> {
  const action = form.get('action');
  if (action === 'decline' || action === 'cancel') return { ok: true, answer: { action } };
  if (action !== 'accept') return { ok: false, summary: 'Choose Send answer, Decline or Cancel.', fieldErrors: {} };
  const fields = formFields(page.requestedSchema);
  const { content, unreadable } = readSubmission(fields, form);
  if (Object.keys(unreadable).length > 0) return { ok: false, summary: undefined, fieldErrors: unreadable };
  const response = { action: 'accept', content };
  const bytes = answerBytes(response);
  if (bytes > maxAnswerBytes) {
    return {
      ok: false,
      summary: `The answer is too long (${bytes} bytes; this server takes at most ${maxAnswerBytes}). Shorten it.`,
      fieldErrors: {},
    };
  }
  const titles = Object.fromEntries(fields.map((field) => [field.name, field.label]));
  try {
    await readAnswer(ask, 'elicit', channel, response, () => titles);
  } catch (error) {
    const fieldErrors = await fieldErrorsOf(ask, page, fields, content);
    return { ok: false, summary: summaryOf(error, fields, fieldErrors), fieldErrors };
  }
  return { ok: true, answer: { action: 'accept', content } };
}
