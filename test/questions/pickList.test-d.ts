/**
 * A pick-list built from data types without a cast: `pickList` takes the titled options an array
 * maps to, and the answer's field is the union of their values (`string` from data, literals from
 * a literal list).
 */
import { elicit, pickList, resolver } from 'mcp-resolve';
import type { PickOption } from 'mcp-resolve';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const lines = [
  { sku: 'enamel-mug', name: 'Enamel mug', cents: 1800 },
  { sku: 'canvas-tote', name: 'Canvas tote', cents: 2400 },
];

describe('pickList', () => {
  it('from data: the field is a string, the form needs no cast', () => {
    const sku = pickList(lines.map((line) => ({ value: line.sku, title: `${line.name} ($${line.cents / 100})` })));
    expectTypeOf<z.output<typeof sku>>().toEqualTypeOf<string>();
    const question = elicit('Which item?', z.object({ sku }));
    const pick = resolver({ name: 'pick' }, () => question);
    expectTypeOf(pick).not.toBeAny();
  });

  it('from literal options: the field is the union of their values', () => {
    const plan = pickList([
      { value: 'free', title: 'Free' },
      { value: 'pro', title: 'Pro ($20 a month)' },
    ]);
    expectTypeOf(plan).toEqualTypeOf<z.ZodType<'free' | 'pro'>>();
    expectTypeOf<z.output<typeof plan>>().toEqualTypeOf<'free' | 'pro'>();
    const options: readonly PickOption<'a' | 'b'>[] = [{ value: 'a', title: 'A' }];
    expectTypeOf(pickList(options)).toEqualTypeOf<z.ZodType<'a' | 'b'>>();
  });

  it('refuses an option without a title or with a value that is not a string', () => {
    // @ts-expect-error - every option needs the title the person reads
    pickList([{ value: 'a' }]);
    // @ts-expect-error - a form's select offers strings
    pickList([{ value: 1, title: 'One' }]);
  });
});
