import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import type { Era } from '../../src/index.js';
import { connectStdio } from '../../src/testing/index.js';
import { answers, firstText } from './scripted.js';

const SERVER = fileURLToPath(new URL('./fixtures/stdioServer.ts', import.meta.url));

describe('connectStdio', () => {
  it.each<[Era, number, number]>([
    ['modern', 2, 0],
    ['legacy', 1, 1],
  ])('serves the %s era from one subprocess with counters', async (era, legs, pushes) => {
    const connection = await connectStdio(process.execPath, ['--import', 'tsx', SERVER], {
      era,
      elicit: answers.elicit,
      stderr: 'inherit',
      timeoutMs: 100_000, // a tsx child starting on a loaded machine
    });
    try {
      expect(connection.client.getProtocolEra()).toBe(era);
      const result = await connection.client.callTool({ name: 'greet', arguments: {} }, { timeout: 60_000 });
      expect(firstText(result)).toBe(`hello Ann (${era})`);
      expect(connection.counters.legs).toEqual({ 'tools/call': legs });
      expect(connection.counters.questions).toEqual({ 'elicitation/create': 1 });
      expect(connection.counters.pushes).toBe(pushes);
    } finally {
      await connection.close();
    }
  });
});
