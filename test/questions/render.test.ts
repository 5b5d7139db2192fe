/**
 * The digest an answer is pinned to: SHA-256 of the RFC 8785 canonical JSON of the question's wire
 * request. A form question's canonical text is assembled from its parts (the schema's made once);
 * it must be the very text `canonicalize` gives for the whole request, for any message.
 */
import { createHash } from 'node:crypto';

import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { elicit, elicitUrl } from '../../src/questions/markers.js';
import { renderQuestion } from '../../src/questions/render.js';

const reference = (request: unknown): string =>
  createHash('sha256')
    .update(canonicalize(request) ?? '')
    .digest('base64url');

const Restock = z.object({
  restock: z.boolean().describe('Put the item back on the shelf?'),
  note: z.string().max(200).optional(),
  colour: z.enum(['red', 'green', 'blüe']),
});

const MESSAGES = ['Restock ORD-7002?', 'quotes " and \\ and \n newline', 'ünïcödé 💸 \u2028', ''];

describe('question digests', () => {
  it.each(MESSAGES)('a form question digests as its canonical request: %j', (message) => {
    const rendered = renderQuestion(elicit(message, Restock), 'restock');
    expect(rendered.digest).toBe(reference(rendered.request));
    // The schema's canonical text is made once; the second question with it digests alike.
    const again = renderQuestion(elicit(message, Restock), 'restock');
    expect(again.digest).toBe(rendered.digest);
  });

  it('differs when the message or the schema differs', () => {
    const digests = new Set([
      renderQuestion(elicit('one', Restock), 'q').digest,
      renderQuestion(elicit('two', Restock), 'q').digest,
      renderQuestion(elicit('one', z.object({ restock: z.boolean() })), 'q').digest,
    ]);
    expect(digests.size).toBe(3);
  });

  it('digests any other question from the canonical request as well', () => {
    const rendered = renderQuestion(elicitUrl('Sign in', 'https://example.com/sign-in'), 'login');
    expect(rendered.digest).toBe(reference(rendered.request));
  });
});
