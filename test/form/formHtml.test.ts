import { describe, expect, it } from 'vitest';

import { formFields } from '../../src/form/fields.js';
import { renderForm } from '../../src/form/formHtml.js';
import { REFUND_QUESTION, refundForm } from '../answerPage/helpers.js';

const fields = formFields(REFUND_QUESTION.requestedSchema);
const base = { message: REFUND_QUESTION.message, fields, action: '/mcp-resolve/answer/abc', formToken: 'tok' };

describe('renderForm', () => {
  it('labels every input, marks required fields, and links hints with aria-describedby', () => {
    const html = renderForm(base);
    expect(html).toContain(
      '<label class="field" for="field-0">Amount (EUR) <span class="required">(required)</span></label>',
    );
    expect(html).toContain('<p class="hint" id="field-0-hint">At most 500.</p>');
    expect(html).toMatch(/id="field-0" name="field.amount" value=""[^>]* aria-describedby="field-0-hint"/);
    expect(html).toContain('<fieldset id="field-1"><legend>Reason <span class="required">(required)</span></legend>');
    expect(html).toContain('type="email" id="field-3"');
    expect(html).toContain('<input type="hidden" name="form-token" value="tok">');
    expect(html).toMatch(/<form method="post" action="\/mcp-resolve\/answer\/abc" novalidate>/);
    for (const action of ['accept', 'decline', 'cancel']) expect(html).toContain(`name="action" value="${action}"`);
    expect(html).not.toMatch(/<script|<img|<link|\son\w+=/);
  });

  it('pre-fills the defaults, and shows a refused submission again with its errors tied to the fields', () => {
    expect(renderForm(base)).toMatch(/id="field-4" name="field.notify" value="on" checked/);
    const html = renderForm({
      ...base,
      submitted: refundForm({ 'field.amount': '9000', 'field.notify': undefined }),
      fieldErrors: { amount: 'Enter a number from 1 to 500.' },
      summary: 'The answer does not fit the form: check "Amount (EUR)".',
    });
    expect(html).toContain('value="9000"');
    expect(html).toMatch(/aria-describedby="field-0-hint field-0-error" aria-invalid="true"/);
    expect(html).toContain('<p class="error" id="field-0-error" data-field="amount">Enter a number from 1 to 500.</p>');
    expect(html).toContain('<div class="summary" role="alert"');
    expect(html).toContain('<a href="#field-0">Amount (EUR): Enter a number from 1 to 500.</a>');
    expect(html).not.toMatch(/name="field.notify" value="on" checked/);
    expect(html).toMatch(/value="damaged" checked/);
  });

  it('escapes everything that comes from the question', () => {
    const evil = '"><script>alert(1)</script>';
    const hostile = formFields({
      type: 'object',
      properties: {
        [evil]: {
          type: 'string',
          title: evil,
          description: evil,
          default: evil,
          enum: [evil],
        },
      },
    });
    const html = renderForm({ ...base, message: evil, fields: hostile, formToken: evil });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('"><script');
    expect(html.match(/&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;/g)?.length).toBeGreaterThanOrEqual(5);
  });

  it('offers "No answer" for an optional single choice', () => {
    const optional = formFields({ type: 'object', properties: { size: { type: 'string', enum: ['s'] } } });
    expect(renderForm({ ...base, fields: optional })).toMatch(/value="" checked> <label for="field-0-none">No answer/);
  });

  it('puts the schema on the inputs: pattern, lengths, bounds and steps, formats as input types', () => {
    const html = renderForm({
      ...base,
      fields: formFields({
        type: 'object',
        properties: {
          ticket: { type: 'string', pattern: '^T-\\d{4}$', minLength: 6, maxLength: 6 },
          seats: { type: 'integer', minimum: 1, maximum: 10 },
          ratio: { type: 'number' },
          when: { type: 'string', format: 'date-time', default: '2026-07-28T16:30:00+02:00' },
          day: { type: 'string', format: 'date' },
        },
      }),
    });
    expect(html).toContain(
      'type="text" id="field-0" name="field.ticket" value="" minlength="6" maxlength="6" pattern="[\\s\\S]*(?:^T-\\d{4}$)[\\s\\S]*"',
    );
    expect(html).toContain('type="number" id="field-1" name="field.seats" value="" step="1" min="1" max="10"');
    expect(html).toContain('type="number" id="field-2" name="field.ratio" value="" step="any"');
    expect(html).toContain('<span class="hint">(UTC)</span>');
    expect(html).toContain('type="datetime-local" id="field-3" name="field.when" value="2026-07-28T14:30:00"');
    expect(html).toContain('type="date" id="field-4"');
  });
});

describe('renderForm without a page', () => {
  it('is sent by script: no method, no action, no form token, the same fields and buttons', () => {
    const html = renderForm({ message: REFUND_QUESTION.message, fields });
    expect(html).toContain('<form novalidate>');
    expect(html).not.toContain('form-token');
    expect(html).toContain('<h1>A question for you</h1>');
    for (const action of ['accept', 'decline', 'cancel']) expect(html).toContain(`name="action" value="${action}"`);
  });
});
