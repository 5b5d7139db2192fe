/**
 * `client.ts --ask` driven through a real pseudo-terminal (util-linux `script`), the way a person
 * would type: the forms are rendered from the requested schema, defaults are taken with Enter,
 * decline and cancel are single keys — on both eras. On the seed's desk the SKU is typed (and one
 * not on the order fails the call); on the guided desk it is a numbered choice, and a bad choice is
 * asked again.
 */
import { describe, expect, it } from 'vitest';

import type { Step } from '../fixtures/pseudoTerminal.js';
import { playInTerminal } from '../fixtures/pseudoTerminal.js';

const CLIENT = 'examples/stories/refund-desk/client.ts';
const ask = (flags: readonly string[]) => [process.execPath, '--import', 'tsx', CLIENT, '--ask', ...flags];

const ANSWER_KEYS = 'a = answer, d = decline, c = cancel [a] > ';

/** The seed's desk: the SKU is typed; one not on the order is refused by the desk. */
const SEED_CONVERSATION: readonly Step[] = [
  { expect: 'Order id (empty to quit) > ', type: 'ORD-7002' },
  { expect: 'Reason > ', type: 'lost parcel' },
  { expect: '? ORD-7002 has several items (enamel-mug, canvas-tote, sticker-pack).' },
  { expect: ANSWER_KEYS, type: '' },
  { expect: '[y/N] > ', type: 'n' },
  { expect: 'Item to refund (SKU) (optional, Enter to skip)' },
  { expect: "This order's items: enamel-mug, canvas-tote, sticker-pack." },
  { expect: '  > ', type: 'mystery-hat' },
  { expect: "error: order has no item 'mystery-hat'" },
  { expect: 'Order id (empty to quit) > ', type: 'ORD-7002' },
  { expect: 'Reason > ', type: 'arrived broken' },
  { expect: ANSWER_KEYS, type: 'a' },
  { expect: '[y/N] > ', type: 'n' },
  { expect: '  > ', type: 'canvas-tote' },
  { expect: '? The refund includes physical items (canvas-tote). Return them to stock?' },
  { expect: ANSWER_KEYS, type: 'a' },
  { expect: '[y/N] > ', type: '' },
  { expect: 'refunded: {"order_id":"ORD-7002","refunded_cents":2400,"restocked":false,"reason":"arrived broken"}' },
  { expect: 'Order id (empty to quit) > ', type: 'ORD-7002' },
  { expect: 'Reason > ', type: 'changed mind' },
  { expect: ANSWER_KEYS, type: 'd' },
  {
    expect:
      "error: Resolver for parameter 'scope' could not resolve: elicitation was decline. \"ORD-7002 has several items",
  },
  { expect: 'Order id (empty to quit) > ', type: 'ORD-7002' },
  { expect: 'Reason > ', type: 'walked away' },
  { expect: ANSWER_KEYS, type: 'c' },
  {
    expect:
      "error: Resolver for parameter 'scope' could not resolve: elicitation was cancel. \"ORD-7002 has several items",
  },
  { expect: 'Order id (empty to quit) > ', type: '' },
  { expect: 'bye' },
];

/** The guided desk: the SKU is a numbered choice, and a number off the list is asked again. */
const GUIDED_CONVERSATION: readonly Step[] = [
  { expect: 'Order id (empty to quit) > ', type: 'ORD-7002' },
  { expect: 'Reason > ', type: 'arrived broken' },
  { expect: '? ORD-7002 has several items (enamel-mug, canvas-tote, sticker-pack).' },
  { expect: ANSWER_KEYS, type: '' },
  { expect: 'Refund the whole order' },
  { expect: 'Tick to refund every item' },
  { expect: '[y/N] > ', type: 'n' },
  { expect: '2) canvas-tote ($24.00)' },
  { expect: 'choose 1-3 > ', type: '9' },
  { expect: 'choose a number from 1 to 3' },
  { expect: 'choose 1-3 > ', type: '2' },
  { expect: '? The refund includes physical items (canvas-tote). Return them to stock?' },
  { expect: ANSWER_KEYS, type: 'a' },
  { expect: '[y/N] > ', type: '' },
  { expect: 'refunded: {"order_id":"ORD-7002","refunded_cents":2400,"restocked":false,"reason":"arrived broken"}' },
  { expect: 'Order id (empty to quit) > ', type: 'ORD-7002' },
  { expect: 'Reason > ', type: 'changed mind' },
  { expect: ANSWER_KEYS, type: 'd' },
  { expect: "error: Resolver for parameter 'scope' could not resolve: elicitation was decline." },
  { expect: 'Order id (empty to quit) > ', type: '' },
  { expect: 'bye' },
];

describe('refund desk client --ask, in a pseudo-terminal', () => {
  it.each([
    { era: '2026-07-28', flags: [] },
    { era: '2025-11-25', flags: ['--legacy'] },
  ])("a person answers every question of the seed's desk at the terminal on $era", async ({ era, flags }) => {
    const { screen, code } = await playInTerminal(ask(flags), SEED_CONVERSATION);
    expect(screen).toContain(`refund desk over stdio, ${era}.`);
    // What the person typed is echoed by the terminal, as on a real one.
    expect(screen).toContain('  > mystery-hat');
    expect(code).toBe(0);
  });

  it("a person picks from the guided desk's numbered list, and a number off the list is asked again", async () => {
    const { screen, code } = await playInTerminal(ask(['--guided']), GUIDED_CONVERSATION);
    expect(screen).toContain('guided refund desk over stdio, 2026-07-28.');
    expect(screen).toContain('choose 1-3 > 9');
    expect(code).toBe(0);
  });
});
