import { describe, expect, it } from 'vitest';

import { patternExample } from '../../src/form/patternExample.js';

describe('patternExample', () => {
  it.each([
    ['^T-\\d{4}$', 'T-1234'],
    ['^[A-Z]{2}-[0-9]{3,5}$', 'AA-123'],
    ['^(?:ORD|INV)-\\d+$', 'ORD-1'],
    ['^\\w+@\\w+\\.com$', 'a@a.com'],
    ['^(\\d{3})-\\d{2}$', '123-45'],
    ['^\\+?[0-9 ]{7,15}$', '1234567'],
    ['abc', 'abc'],
  ])('gives an example %s accepts', (pattern, example) => {
    expect(patternExample(pattern)).toBe(example);
    expect(new RegExp(pattern, 'u').test(example)).toBe(true);
  });

  it.each([
    ['a negated class', '^[^x]+$'],
    ['a named group', '(?<n>x)'],
    ['a lookahead', '^(?=a)a$'],
    ['an example too long to show', '^\\d{1000}$'],
    ['nested repetition past the bound', '^((x{9}){9}){9}$'],
    ['a pattern that is not a regular expression', '^(a$'],
    ['one too long to read', 'a'.repeat(201)],
    ['an example the pattern refuses', '^a\\bb$'],
  ])('gives none for %s', (_what, pattern) => {
    expect(patternExample(pattern)).toBeUndefined();
  });
});
