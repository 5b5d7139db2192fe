/** The deck's runnable examples keep their promises: the basics end with their expected text, run.ts prints its contract. */
import { describe, expect, it } from 'vitest';

import { main as basic } from '../../examples/mrtr-options/basic.js';
import { main as basicMultiround } from '../../examples/mrtr-options/basic-multiround.js';
import { run } from '../../examples/mrtr-options/run.js';

/** Runs `fn` with a log that keeps every line. */
async function captured<T>(fn: (log: (line: string) => void) => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const lines: string[] = [];
  const value = await fn((line) => void lines.push(line));
  return { value, lines };
}

describe('basic examples', () => {
  it('basic: one input_required, one retry, the weather', async () => {
    const { value, lines } = await captured(basic);
    expect(value).toBe(true);
    expect(lines.filter((line) => line.startsWith('server →'))).toEqual([
      'server → input_required: asks [units], no requestState',
      'server → result: Weather in Tokyo: 22°C',
    ]);
  });

  it('basic-multiround: two rounds, the first answer carried only by the sealed requestState', async () => {
    const { value, lines } = await captured(basicMultiround);
    expect(value).toBe(true);
    const server = lines.filter((line) => line.startsWith('server →'));
    expect(server).toHaveLength(3);
    expect(server[0]).toBe('server → input_required: asks [resolution], no requestState');
    expect(server[1]).toMatch(/^server → input_required: asks \[duplicateOf\], requestState: sealed, \d+ chars$/);
    expect(server[2]).toBe('server → result: #4522 resolved as Duplicate of #4301.');
    // The retry carries only the latest answer; the resolution rides in the state.
    expect(lines.filter((line) => line.startsWith('client →')).at(-1)).toMatch(
      /\+ inputResponses \[duplicateOf\], requestState: sealed/,
    );
  });
});

describe('run.ts', () => {
  it.each([
    { argv: ['b', '--http'], last: ['result: Weather in Tokyo: 22°C', 'questions: 1', 'audit: 2'] },
    { argv: ['j', '--http', '--legacy'], last: ['result: Weather in Tokyo: 22°C', 'questions: 1', 'audit: 1'] },
    { argv: ['e', '--http', '--legacy'], last: ['result: Weather in Tokyo: 22°C', 'questions: 0', 'audit: 1'] },
  ])('$argv ends with result, questions and audit', async ({ argv, last }) => {
    const { value, lines } = await captured((log) => run(argv, log));
    expect({ exit: value, last: lines.slice(-3) }).toEqual({ exit: 0, last });
  });

  it('--mrtr-only --legacy: the pinned client refuses a legacy-only server, saying so', async () => {
    const { value, lines } = await captured((log) => run(['j', '--http', '--mrtr-only', '--legacy'], log));
    expect(value).toBe(0);
    expect(lines.join('\n')).toMatch(/refused: .*did not offer pinned protocol version 2026-07-28.*no fallback/);
  });
});
