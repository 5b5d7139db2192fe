/**
 * What the page tells a person about a field the schema refused, in the page's words (never the
 * validator's): the range of a number, the format, length and pattern of a text. Whether an answer
 * is refused is decided elsewhere, by the same check as an in-band answer; this only says what to fix,
 * naming the rule the value breaks when it can tell, else every rule of the field.
 */
import { matchesPattern } from './patterns.js';
import type { FormField } from './fields.js';
import { patternExample } from './patternExample.js';

const GENERIC = 'Check this answer: it does not fit the form.';

/** A number field's refusal: its range ("a whole number from 1 to 10", "a number greater than 0", …). */
function rangeText(field: FormField): string {
  const { min, max } = field.limits;
  const whole = field.kind === 'integer' ? 'a whole number' : 'a number';
  if (min !== undefined && max !== undefined && !field.exclusive.min && !field.exclusive.max) {
    return `Enter ${whole} from ${min} to ${max}.`;
  }
  const lower = min === undefined ? undefined : field.exclusive.min ? `greater than ${min}` : `at least ${min}`;
  const upper = max === undefined ? undefined : field.exclusive.max ? `less than ${max}` : `at most ${max}`;
  if (lower !== undefined && upper !== undefined) return `Enter ${whole} ${lower} and ${upper}.`;
  const bound = lower ?? upper;
  if (bound === undefined) return `Enter ${whole}.`;
  return `Enter ${whole} ${bound.startsWith('at ') ? 'of ' : ''}${bound}.`;
}

const FORMAT_TEXT: Readonly<Record<FormField['inputType'], string | undefined>> = {
  email: 'Enter an email address, like name@example.com.',
  url: 'Enter a web address, like https://example.com.',
  date: 'Enter a date, like 2026-07-28.',
  'datetime-local': 'Enter a date and a time (UTC), like 2026-07-28T14:30:00Z.',
  text: undefined,
};

/** A length rule's text, and whether `value` breaks it (lengths count code points, as JSON Schema does). */
function lengthRule(field: FormField, value: string): { text: string; broken: boolean } | undefined {
  const { minlength, maxlength } = field.limits;
  if (minlength === undefined && maxlength === undefined) return undefined;
  const length = [...value].length;
  const broken = (minlength !== undefined && length < minlength) || (maxlength !== undefined && length > maxlength);
  if (minlength !== undefined && minlength === maxlength) {
    return { text: `Enter exactly ${minlength} character${minlength === 1 ? '' : 's'}.`, broken };
  }
  if (minlength !== undefined && maxlength !== undefined) {
    return { text: `Enter from ${minlength} to ${maxlength} characters.`, broken };
  }
  return minlength !== undefined
    ? { text: `Enter at least ${minlength} characters.`, broken }
    : { text: `Enter at most ${maxlength} characters.`, broken };
}

/**
 * A pattern rule's text ("It must look like T-1234.", from an example the pattern accepts; else the
 * field's hint, else the pattern itself), and whether `value` breaks it. A field with a format says
 * the format instead (zod writes a format's own pattern too).
 */
function patternRule(field: FormField, value: string): { text: string; broken: boolean } | undefined {
  const { pattern } = field;
  if (pattern === undefined || FORMAT_TEXT[field.inputType] !== undefined) return undefined;
  const broken = !matchesPattern(pattern, value);
  const example = patternExample(pattern);
  if (example !== undefined) return { text: `It must look like ${example}.`, broken };
  const hint = field.description !== undefined && field.description !== '' ? 'as the hint above says' : undefined;
  return { text: `It must be written ${hint ?? `to match the pattern ${pattern}`}.`, broken };
}

/**
 * What a form client must be told of `field`'s pattern when `value` misses it, since the pattern
 * does not travel on the wire (elicitation's string schema has none): "it must look like T-1234"
 * (an example the pattern accepts), else "it must be written as its description says", else the
 * pattern itself. `undefined` when the field has no pattern of its own or `value` matches it.
 */
export function missedPatternHint(field: FormField, value: unknown): string | undefined {
  const { pattern } = field;
  if (pattern === undefined || FORMAT_TEXT[field.inputType] !== undefined || typeof value !== 'string')
    return undefined;
  if (matchesPattern(pattern, value)) return undefined;
  const example = patternExample(pattern);
  if (example !== undefined) return `it must look like ${example}`;
  if (field.description !== undefined && field.description !== '') return 'it must be written as its description says';
  return `it must match the pattern ${pattern}`;
}

/** What a text field's refusal says: the rules `value` breaks, else all of them. */
function textRules(field: FormField, value: unknown): string {
  const text = typeof value === 'string' ? value : '';
  const format = FORMAT_TEXT[field.inputType];
  const rules = [lengthRule(field, text), patternRule(field, text)].filter((rule) => rule !== undefined);
  const broken = rules.filter((rule) => rule.broken);
  if (broken.length > 0) return broken.map((rule) => rule.text).join(' ');
  const all = [format, ...rules.map((rule) => rule.text)].filter((part) => part !== undefined);
  return all.length > 0 ? all.join(' ') : GENERIC;
}

/** What one field's refusal says, for its value (`undefined`: none was given). */
export function fieldErrorText(field: FormField, value: unknown): string {
  if (value === undefined) {
    return field.kind === 'choice' ? 'Choose one of the options.' : 'Answer this field: it is required.';
  }
  switch (field.kind) {
    case 'integer':
    case 'number':
      return rangeText(field);
    case 'text':
      return textRules(field, value);
    case 'boolean':
    case 'choice':
    case 'choices':
      return GENERIC;
  }
}
