/**
 * Whether a field's value fits its part of the form's wire schema, checked by the library itself.
 * Elicitation's schema is a closed set of flat primitives (a string with length, format and pattern;
 * a number or integer with a range; a boolean; a single or multiple choice), so the check is a
 * reading of the parsed {@link FormField}: nothing is compiled per question (no validator cache to
 * grow), and a `pattern` is matched by RE2 in linear time (`patterns.ts`), never by a
 * backtracking engine.
 */
import { matchesPattern } from './patterns.js';
import type { FormField } from './fields.js';

/** The formats a text field is checked against (what `format` may say in an elicitation schema), as RE2 patterns. */
const FORMAT_PATTERNS: Readonly<Partial<Record<FormField['inputType'], string>>> = {
  email: '^[^\\s@]+@[^\\s@]+$',
  date: '^\\d{4}-\\d{2}-\\d{2}$',
  'datetime-local': '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$',
};

/** Whether `text` is written in the field's format (a date and a date-time must also be real ones). */
function fitsFormat(field: FormField, text: string): boolean {
  if (field.inputType === 'url') return URL.canParse(text);
  const pattern = FORMAT_PATTERNS[field.inputType];
  if (pattern === undefined) return true;
  if (!matchesPattern(pattern, text)) return false;
  if (field.inputType === 'email') return true;
  const time = Date.parse(field.inputType === 'date' ? `${text}T00:00:00Z` : text);
  return Number.isFinite(time) && (field.inputType !== 'date' || new Date(time).toISOString().startsWith(text));
}

function fitsText(field: FormField, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const { minlength, maxlength } = field.limits;
  const length = [...value].length; // code points, as JSON Schema counts
  if ((minlength !== undefined && length < minlength) || (maxlength !== undefined && length > maxlength)) return false;
  if (field.pattern !== undefined && !matchesPattern(field.pattern, value)) return false;
  return fitsFormat(field, value);
}

function fitsNumber(field: FormField, value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (field.kind === 'integer' && !Number.isInteger(value)) return false;
  const { min, max } = field.limits;
  if (min !== undefined && (field.exclusive.min ? value <= min : value < min)) return false;
  if (max !== undefined && (field.exclusive.max ? value >= max : value > max)) return false;
  return true;
}

function isChoice(field: FormField, value: unknown): boolean {
  return typeof value === 'string' && field.choices.some((choice) => choice.value === value);
}

function fitsChoices(field: FormField, value: unknown): boolean {
  if (!Array.isArray(value) || !value.every((item) => isChoice(field, item))) return false;
  const { min, max } = field.itemCount;
  return (min === undefined || value.length >= min) && (max === undefined || value.length <= max);
}

/** Whether `value` (`undefined`: none given) fits `field`. */
export function fieldFits(field: FormField, value: unknown): boolean {
  if (value === undefined) return !field.required;
  switch (field.kind) {
    case 'text':
      return fitsText(field, value);
    case 'number':
    case 'integer':
      return fitsNumber(field, value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'choice':
      return isChoice(field, value);
    case 'choices':
      return fitsChoices(field, value);
  }
}

/** The names of the fields whose value in `content` does not fit, in the form's order. */
export function refusedFields(fields: readonly FormField[], content: Readonly<Record<string, unknown>>): string[] {
  return fields
    .filter((field) => !fieldFits(field, Object.hasOwn(content, field.name) ? content[field.name] : undefined))
    .map((field) => field.name);
}
