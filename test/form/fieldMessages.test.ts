/**
 * What the page says of a refused field, per schema keyword: number bounds (inclusive, exclusive,
 * zod's safe-integer bounds left out), formats, lengths and patterns (an example the pattern
 * accepts, else the hint, else the pattern), naming the rule the value breaks.
 */
import { describe, expect, it } from 'vitest';

import { fieldErrorText } from '../../src/form/fieldMessages.js';
import type { FormField } from '../../src/form/fields.js';
import { formFields } from '../../src/form/fields.js';

/** The one field of a form with property `property`. */
function field(property: Record<string, unknown>): FormField {
  const [only] = formFields({ type: 'object', properties: { f: property } });
  if (only === undefined) throw new Error('no field');
  return only;
}

describe('fieldErrorText', () => {
  it('asks for a missing value, or a choice', () => {
    expect(fieldErrorText(field({ type: 'string' }), undefined)).toBe('Answer this field: it is required.');
    expect(fieldErrorText(field({ type: 'string', enum: ['a'] }), undefined)).toBe('Choose one of the options.');
  });

  it.each([
    [{ type: 'integer', minimum: 1, maximum: 10 }, 'Enter a whole number from 1 to 10.'],
    [{ type: 'integer', minimum: 2 }, 'Enter a whole number of at least 2.'],
    [{ type: 'number', maximum: 5.5 }, 'Enter a number of at most 5.5.'],
    [{ type: 'number', exclusiveMinimum: 0 }, 'Enter a number greater than 0.'],
    [{ type: 'number', exclusiveMinimum: 0, maximum: 1 }, 'Enter a number greater than 0 and at most 1.'],
    [{ type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 11 }, 'Enter a whole number from 1 to 10.'],
    [{ type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, 'Enter a whole number.'],
  ])('states the range of %j', (property, text) => {
    expect(fieldErrorText(field(property), 99)).toBe(text);
  });

  it.each([
    [{ type: 'string', format: 'email' }, 'Enter an email address, like name@example.com.'],
    [{ type: 'string', format: 'uri' }, 'Enter a web address, like https://example.com.'],
    [{ type: 'string', format: 'date' }, 'Enter a date, like 2026-07-28.'],
    [{ type: 'string', format: 'date-time' }, 'Enter a date and a time (UTC), like 2026-07-28T14:30:00Z.'],
  ])('names the format of %j', (property, text) => {
    expect(fieldErrorText(field(property), 'nope')).toBe(text);
  });

  it('names the format, not the pattern zod writes for it', () => {
    const email = field({ type: 'string', format: 'email', pattern: '^[^@]+@[^@]+$' });
    expect(fieldErrorText(email, 'nope')).toBe('Enter an email address, like name@example.com.');
  });

  it.each([
    [{ minLength: 3 }, 'ab', 'Enter at least 3 characters.'],
    [{ maxLength: 100 }, 'x'.repeat(101), 'Enter at most 100 characters.'],
    [{ minLength: 2, maxLength: 5 }, 'x', 'Enter from 2 to 5 characters.'],
    [{ minLength: 6, maxLength: 6 }, 'x', 'Enter exactly 6 characters.'],
    [{ minLength: 1, maxLength: 1 }, 'xy', 'Enter exactly 1 character.'],
  ])('states the length of %j', (limits, value, text) => {
    expect(fieldErrorText(field({ type: 'string', ...limits }), value)).toBe(text);
  });

  it('counts code points as JSON Schema does', () => {
    const short = field({ type: 'string', maxLength: 2, pattern: '^x' });
    expect(fieldErrorText(short, '😀😀')).toBe('It must look like x.');
  });

  it('shows an example the pattern accepts, and names only the rule the value breaks', () => {
    const ticket = field({ type: 'string', pattern: '^T-\\d{4}$', maxLength: 6 });
    expect(fieldErrorText(ticket, '1234')).toBe('It must look like T-1234.');
    expect(fieldErrorText(ticket, 'T-12345')).toBe('Enter at most 6 characters. It must look like T-1234.');
  });

  it('points to the hint, else shows the pattern, when it can give no example', () => {
    const hinted = field({ type: 'string', pattern: '^[^x]+$', description: 'Anything without an x.' });
    expect(fieldErrorText(hinted, 'x')).toBe('It must be written as the hint above says.');
    expect(fieldErrorText(field({ type: 'string', pattern: '^[^x]+$' }), 'x')).toBe(
      'It must be written to match the pattern ^[^x]+$.',
    );
  });

  it('says every rule when it cannot tell which one the value breaks', () => {
    const both = field({ type: 'string', format: 'email', maxLength: 50 });
    expect(fieldErrorText(both, 'nope')).toBe(
      'Enter an email address, like name@example.com. Enter at most 50 characters.',
    );
    expect(fieldErrorText(field({ type: 'boolean' }), 'x')).toBe('Check this answer: it does not fit the form.');
  });
});
