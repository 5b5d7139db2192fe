/**
 * The library's own check of a form field: each kind of elicitation field, its bounds, formats and
 * pattern, read from the wire schema the server stored.
 */
import { describe, expect, it } from 'vitest';

import { fieldFits, refusedFields } from '../../src/form/fieldCheck.js';
import type { FormField } from '../../src/form/fields.js';
import { formFields } from '../../src/form/fields.js';

const FIELDS = formFields({
  type: 'object',
  properties: {
    text: { type: 'string', minLength: 2, maxLength: 4, pattern: '^T' },
    count: { type: 'integer', minimum: 1, exclusiveMaximum: 10 },
    amount: { type: 'number', exclusiveMinimum: 0, maximum: 5.5 },
    agree: { type: 'boolean' },
    colour: { type: 'string', enum: ['red', 'green'] },
    tags: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
    email: { type: 'string', format: 'email' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    site: { type: 'string', format: 'uri' },
  },
  required: ['text'],
});
const field = (name: string): FormField => FIELDS.find((each) => each.name === name)!;
const [text, count, amount, agree, colour, tags, email, day, at, site] = [
  'text',
  'count',
  'amount',
  'agree',
  'colour',
  'tags',
  'email',
  'day',
  'at',
  'site',
].map(field) as [
  FormField,
  FormField,
  FormField,
  FormField,
  FormField,
  FormField,
  FormField,
  FormField,
  FormField,
  FormField,
];

describe('fieldFits', () => {
  it.each([
    [text, 'T1', true],
    [text, 'Tü😀', true], // code points, as JSON Schema counts
    [text, 'T', false],
    [text, 'T1234', false],
    [text, 'X1', false],
    [text, 12, false],
    [count, 9, true],
    [count, 10, false],
    [count, 0, false],
    [count, 2.5, false],
    [amount, 5.5, true],
    [amount, 0, false],
    [amount, Number.NaN, false],
    [amount, '1', false],
    [agree, false, true],
    [agree, 'true', false],
    [colour, 'green', true],
    [colour, 'blue', false],
    [tags, ['a', 'c'], true],
    [tags, [], false],
    [tags, ['a', 'b', 'c'], false],
    [tags, ['z'], false],
    [email, 'ada@example.com', true],
    [email, 'ada.example.com', false],
    [day, '2026-07-28', true],
    [day, '2026-02-30', false],
    [at, '2026-07-28T10:30:00Z', true],
    [at, '2026-07-28T10:30:00+02:00', true],
    [at, '2026-07-28 tomorrow', false],
    [site, 'https://example.com/x', true],
    [site, 'not a url', false],
  ] as const)('%o takes %j: %s', (field, value, fits) => {
    expect(fieldFits(field, value)).toBe(fits);
  });

  it('takes an optional field left out and refuses a required one', () => {
    expect(fieldFits(count, undefined)).toBe(true);
    expect(fieldFits(text, undefined)).toBe(false);
  });
});

describe('refusedFields', () => {
  it("names the fields that do not fit, in the form's order", () => {
    const fields = [text, count, colour];
    expect(refusedFields(fields, { count: 99, text: 'no', colour: 'red' })).toEqual(['text', 'count']);
    expect(refusedFields(fields, { text: 'Tab' })).toEqual([]);
  });
});
