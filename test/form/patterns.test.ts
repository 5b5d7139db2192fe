/**
 * Patterns in linear time: every `pattern` the library runs is RE2's, found anywhere in the value as
 * JSON Schema reads it; a pattern RE2 cannot read is refused when its question is first rendered;
 * an in-band answer that misses a pattern is refused before the author's own schema (and its
 * backtracking regular expression) sees it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { elicit } from '../../src/questions/markers.js';
import { matchesPattern, patternMisses, patternProblem } from '../../src/form/patterns.js';
import { readAnswer, RejectedAnswer } from '../../src/questions/read.js';
import { renderQuestion } from '../../src/questions/render.js';

/** A pattern a backtracking engine needs about 2^n steps for on n letters and a miss. */
const CATASTROPHIC = '^(a+)+$';
const NEAR_MISS = `${'a'.repeat(5000)}!`;

describe('matchesPattern', () => {
  it('finds the pattern anywhere in the value, as JSON Schema does', () => {
    expect(matchesPattern('\\d{4}', 'ab1234c')).toBe(true);
    expect(matchesPattern('^\\d{4}$', 'ab1234c')).toBe(false);
    expect(matchesPattern('^\\p{L}+$', 'héllo')).toBe(true);
  });

  it('answers a catastrophic pattern on a long near-miss (a backtracking engine would not end)', () => {
    expect(matchesPattern(CATASTROPHIC, NEAR_MISS)).toBe(false);
    expect(matchesPattern(CATASTROPHIC, 'a'.repeat(5000))).toBe(true);
  });

  it('matches nothing with a pattern RE2 cannot read, and names why', () => {
    expect(matchesPattern('(a)\\1', 'aa')).toBe(false);
    expect(patternProblem('(a)\\1')).toContain('invalid escape sequence');
    expect(patternProblem('(?=a)b')).toContain('(?=');
    expect(patternProblem('^T-\\d{4}$')).toBeUndefined();
  });
});

describe('patternMisses', () => {
  const schema = {
    type: 'object',
    properties: { code: { type: 'string', pattern: CATASTROPHIC }, note: { type: 'string' } },
  };

  it('names the string values that miss their pattern, and nothing else', () => {
    expect(patternMisses(schema, { code: NEAR_MISS, note: NEAR_MISS })).toEqual(['code']);
    expect(patternMisses(schema, { code: 'aaa' })).toEqual([]);
    expect(patternMisses(schema, { code: 7 })).toEqual([]); // a wrong type is the schema's to refuse
    expect(patternMisses(undefined, { code: NEAR_MISS })).toEqual([]);
  });
});

describe('a question with a pattern', () => {
  it('is refused when first rendered if RE2 cannot read its pattern, naming the property and why', () => {
    const backreference = z.object({ twice: z.string().regex(/^(\w)\1$/) });
    expect(() => renderQuestion(elicit('Twice?', backreference), 'twice')).toThrow(
      "Resolver 'twice' asks with a pattern that cannot be matched in linear time (property 'twice': error parsing regexp: invalid escape sequence: `\\1`). Patterns are matched by RE2, which never backtracks: write it without backreferences or lookaround.",
    );
  });

  it("refuses a near-miss in-band before the author's zod regex runs on it", async () => {
    const Code = z.object({ code: z.string().regex(new RegExp(CATASTROPHIC)).meta({ title: 'Code' }) });
    const ask = elicit('Code?', Code);
    const { request } = renderQuestion(ask, 'code');
    const requestedSchema = (request.params as { requestedSchema?: unknown }).requestedSchema;
    const answer = readAnswer(
      ask,
      'elicit',
      'code',
      { action: 'accept', content: { code: NEAR_MISS } },
      requestedSchema,
    );
    await expect(answer).rejects.toBeInstanceOf(RejectedAnswer);
    await expect(answer).rejects.toMatchObject({
      reason: 'The answer does not fit the form: check "Code" (it must look like a).',
    });
    await expect(
      readAnswer(ask, 'elicit', 'code', { action: 'accept', content: { code: 'aaaa' } }, requestedSchema),
    ).resolves.toEqual({ action: 'accept', value: { code: 'aaaa' } });
  });
});
