/** A form question, its page and a store, shared by the answer page tests. */
import * as z from 'zod';

import { inputRequired } from '@modelcontextprotocol/server';

import type { AnswerPageBinding, AnswerPageQuestion } from '../../src/pageStore/store.js';

/** The refund desk's confirmation form, rendered as the wire schema a client receives. */
export const REFUND_SCHEMA = z.object({
  amount: z.number().min(1).max(500).meta({ title: 'Amount (EUR)', description: 'At most 500.' }),
  reason: z.enum(['damaged', 'late', 'other']).meta({ title: 'Reason' }),
  note: z.string().max(200).optional().meta({ title: 'Note for the team' }),
  email: z.email().meta({ title: 'Receipt to' }),
  notify: z.boolean().default(true).meta({ title: 'Tell the customer' }),
});

/** The wire `requestedSchema` of {@link REFUND_SCHEMA}. */
export function wireSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const request = inputRequired.elicit({ message: '', requestedSchema: schema });
  if (request.method !== 'elicitation/create' || !('requestedSchema' in request.params)) throw new Error('not a form');
  return request.params.requestedSchema;
}

/** The question a refund page shows. */
export const REFUND_QUESTION: AnswerPageQuestion = {
  message: 'Refund order ORD-1 for Ada?',
  requestedSchema: wireSchemaOf(REFUND_SCHEMA),
};

/** The call that asked it. */
export const ALICE_CALL: AnswerPageBinding = {
  principal: 'alice',
  tool: 'refund',
  argumentsDigest: 'args-1',
  questionDigest: 'question-1',
};

/** A valid accepted submission of the refund form, as a browser posts it. */
export function refundForm(overrides: Record<string, string | undefined> = {}): URLSearchParams {
  const fields: Record<string, string | undefined> = {
    'field.amount': '120',
    'field.reason': 'damaged',
    'field.note': '',
    'field.email': 'ada@example.com',
    'field.notify': 'on',
    action: 'accept',
    ...overrides,
  };
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  return form;
}
