/**
 * A pick-list built from data: titled choices a form client shows as a select (the titled enum of
 * elicitation forms), typed by the values offered, with no cast at the call site.
 */
import { z } from 'zod';

import { McpResolveError } from '../errors.js';

/** One choice of a {@link pickList}: the value the answer carries, and the title the person reads. */
export interface PickOption<TValue extends string = string> {
  /** What the answer holds when this choice is picked. */
  readonly value: TValue;
  /** What the form shows for it. */
  readonly title: string;
}

/**
 * A form field offering `options` as a titled select; an answer off the list fails the form's
 * schema (and is asked again). Its type is the union of the values: literal when the options are
 * (`as const`), `string` when they come from data, as in
 * `pickList(order.lines.map((line) => ({ value: line.sku, title: line.name })))`.
 */
export function pickList<const TValue extends string>(options: readonly PickOption<TValue>[]): z.ZodType<TValue> {
  const seen = new Set<string>();
  for (const option of options) {
    if (seen.has(option.value)) {
      throw new McpResolveError(
        'invalid_declaration',
        `pickList(): the value '${option.value}' is offered twice. Give each option its own value.`,
        { data: { kind: 'question', field: 'options' } },
      );
    }
    seen.add(option.value);
  }
  const [first, ...rest] = options.map((option) => z.literal(option.value).meta({ title: option.title }));
  if (first === undefined) {
    throw new McpResolveError(
      'invalid_declaration',
      'pickList(): there are no options (got an empty array). Offer at least one, or do not ask when there is nothing to pick.',
      { data: { kind: 'question', field: 'options' } },
    );
  }
  return z.union([first, ...rest]);
}
