import { describe, expect, it } from 'vitest';

import { formFields, inputName, readSubmission } from '../../src/form/fields.js';
import { REFUND_QUESTION, refundForm } from '../answerPage/helpers.js';

describe('formFields', () => {
  const fields = formFields(REFUND_QUESTION.requestedSchema);

  it('reads each property in order, with its title, description, default, limits and requiredness', () => {
    expect(fields.map((field) => [field.name, field.kind, field.label, field.required])).toEqual([
      ['amount', 'number', 'Amount (EUR)', true],
      ['reason', 'choice', 'Reason', true],
      ['note', 'text', 'Note for the team', false],
      ['email', 'text', 'Receipt to', true],
      ['notify', 'boolean', 'Tell the customer', false],
    ]);
    expect(fields[0]).toMatchObject({ description: 'At most 500.', limits: { min: 1, max: 500 } });
    expect(fields[1]?.choices).toEqual([
      { value: 'damaged', label: 'damaged' },
      { value: 'late', label: 'late' },
      { value: 'other', label: 'other' },
    ]);
    expect(fields[2]?.limits).toEqual({ maxlength: 200 });
    expect(fields[3]?.inputType).toBe('email');
    expect(fields[4]?.defaultValue).toBe(true);
  });

  it('reads titled single and multiple choices, and legacy enumNames', () => {
    const titled = formFields({
      type: 'object',
      properties: {
        size: {
          type: 'string',
          oneOf: [
            { const: 's', title: 'Small' },
            { const: 'l', title: 'Large' },
          ],
        },
        tags: { type: 'array', items: { anyOf: [{ const: 'a', title: 'Alpha' }] } },
        plain: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } },
        legacy: { type: 'string', enum: ['1', '2'], enumNames: ['One', 'Two'] },
        count: { type: 'integer' },
      },
    });
    expect(titled.map((field) => [field.kind, field.choices.map((choice) => choice.label)])).toEqual([
      ['choice', ['Small', 'Large']],
      ['choices', ['Alpha']],
      ['choices', ['x', 'y']],
      ['choice', ['One', 'Two']],
      ['integer', []],
    ]);
  });

  it('is empty for something that is not an object schema', () => {
    expect(formFields(undefined)).toEqual([]);
    expect(formFields({ type: 'object' })).toEqual([]);
  });
});

describe('readSubmission', () => {
  const fields = formFields(REFUND_QUESTION.requestedSchema);

  it('turns a posted form into the content an in-band client sends', () => {
    expect(readSubmission(fields, refundForm())).toEqual({
      content: { amount: 120, reason: 'damaged', email: 'ada@example.com', notify: true },
      unreadable: {},
    });
  });

  it('leaves empty fields out, sends an unchecked box as false, and names a number it cannot read', () => {
    const read = readSubmission(
      fields,
      refundForm({ 'field.amount': 'twelve', 'field.notify': undefined, 'field.email': '' }),
    );
    expect(read.content).toEqual({ reason: 'damaged', notify: false });
    expect(read.unreadable).toEqual({ amount: 'Enter a number.' });
  });

  it('reads a multiple choice as a list, and keeps a property named __proto__ as plain data', () => {
    const odd = formFields({
      type: 'object',
      properties: { ['__proto__']: { type: 'string' }, tags: { type: 'array', items: { enum: ['a', 'b'] } } },
    });
    const form = new URLSearchParams([
      ['field.__proto__', 'x'],
      ['field.tags', 'a'],
      ['field.tags', 'b'],
    ]);
    const { content } = readSubmission(odd, form);
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
    expect(Object.entries(content)).toEqual([
      ['__proto__', 'x'],
      ['tags', ['a', 'b']],
    ]);
  });

  it('names inputs apart from the form token and the action', () => {
    expect(fields.map(inputName)).not.toContain('action');
    expect(inputName(fields[0]!)).toBe('field.amount');
  });
});

describe('formFields keeps what the schema says', () => {
  const [ticket, seats, ratio, when, site] = formFields({
    type: 'object',
    properties: {
      ticket: { type: 'string', pattern: '^T-\\d{4}$', minLength: 6, maxLength: 6 },
      seats: { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 },
      ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      when: { type: 'string', format: 'date-time' },
      site: { type: 'string', format: 'uri' },
    },
  });

  it('reads pattern, lengths, bounds (an integer exclusive bound as the next whole number) and formats', () => {
    expect(ticket).toMatchObject({ pattern: '^T-\\d{4}$', limits: { minlength: 6, maxlength: 6 }, inputType: 'text' });
    expect(seats).toMatchObject({ limits: { min: 1 }, exclusive: { min: false, max: false } });
    expect(ratio).toMatchObject({ limits: { min: 0, max: 1 }, exclusive: { min: true, max: true } });
    expect(when?.inputType).toBe('datetime-local');
    expect(site?.inputType).toBe('url');
  });

  it('reads a browser date-time (UTC, no offset) as RFC 3339, and leaves other text to the schema', () => {
    const read = (text: string) => readSubmission([when!], new URLSearchParams({ 'field.when': text })).content;
    expect(read('2026-07-28T14:30')).toEqual({ when: '2026-07-28T14:30:00Z' });
    expect(read('2026-07-28T14:30:15.5')).toEqual({ when: '2026-07-28T14:30:15.5Z' });
    expect(read('2026-07-28T14:30:00+02:00')).toEqual({ when: '2026-07-28T14:30:00+02:00' });
    expect(read('soon')).toEqual({ when: 'soon' });
  });
});
