/**
 * `client.ts --ask` driven through a real pseudo-terminal (util-linux `script`), the way a person
 * would type: the forms are rendered from the requested schema, defaults are taken with Enter,
 * decline and cancel are single keys — on both eras. On the seed's desk the SKU is typed (and one
 * not on the order fails the call); on the guided desk it is a numbered choice, and a bad choice is
 * asked again.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLIENT = 'examples/stories/refund-desk/client.ts';

/** One exchange: wait until the terminal shows `expect`, then type `type` (and Enter), if given. */
interface Step {
  readonly expect: string;
  readonly type?: string;
}

/** Runs the client in a pseudo-terminal, plays `steps`, and returns everything the terminal showed. */
async function playInTerminal(
  flags: readonly string[],
  steps: readonly Step[],
): Promise<{ screen: string; code: number | null }> {
  const command = [process.execPath, '--import', 'tsx', CLIENT, '--ask', ...flags].join(' ');
  const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let seenUpTo = 0;
  let waiter: (() => void) | undefined;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    screen += chunk.replace(/\r/g, '');
    waiter?.();
  });
  child.stderr.on('data', () => {});
  const waitFor = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the terminal never showed ${JSON.stringify(text)}; it shows:\n${screen}`)),
        20_000,
      );
      const look = () => {
        const at = screen.indexOf(text, seenUpTo);
        if (at < 0) return;
        seenUpTo = at + text.length;
        clearTimeout(timer);
        waiter = undefined;
        resolve();
      };
      waiter = look;
      look();
    });
  try {
    for (const step of steps) {
      await waitFor(step.expect);
      if (step.type !== undefined) child.stdin.write(`${step.type}\r`);
    }
    const [code] = (await once(child, 'exit')) as [number | null];
    return { screen, code };
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
}

const ANSWER_KEYS = 'a = answer, d = decline, c = cancel [a] > ';

/** The seed's desk: the SKU is typed; one not on the order is refused by the desk. */
const SEED_CONVERSATION: readonly Step[] = [
  { expect: 'Order id (empty to quit) > ', type: 'ORD-7002' },
  { expect: 'Reason > ', type: 'lost parcel' },
  { expect: '? ORD-7002 has several items (enamel-mug, canvas-tote, sticker-pack).' },
  { expect: ANSWER_KEYS, type: '' },
  { expect: '[Y/n] > ', type: 'n' },
  { expect: 'Item to refund (SKU) (optional, Enter to skip)' },
  { expect: "This order's items: enamel-mug, canvas-tote, sticker-pack." },
  { expect: '  > ', type: 'mystery-hat' },
  { expect: "error: order has no item 'mystery-hat'" },
  { expect: 'Order id (empty to quit) > ', type: 'ORD-7002' },
  { expect: 'Reason > ', type: 'arrived broken' },
  { expect: ANSWER_KEYS, type: 'a' },
  { expect: '[Y/n] > ', type: 'n' },
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
  { expect: 'Leave ticked to refund every item' },
  { expect: '[Y/n] > ', type: 'n' },
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
    const { screen, code } = await playInTerminal(flags, SEED_CONVERSATION);
    expect(screen).toContain(`refund desk over stdio, ${era}.`);
    // What the person typed is echoed by the terminal, as on a real one.
    expect(screen).toContain('  > mystery-hat');
    expect(code).toBe(0);
  });

  it("a person picks from the guided desk's numbered list, and a number off the list is asked again", async () => {
    const { screen, code } = await playInTerminal(['--guided'], GUIDED_CONVERSATION);
    expect(screen).toContain('guided refund desk over stdio, 2026-07-28.');
    expect(screen).toContain('choose 1-3 > 9');
    expect(code).toBe(0);
  });
});
