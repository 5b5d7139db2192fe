import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * Three projects, chosen by file name so a new test falls into one without a list to edit:
 * - `integration`: `*.int.test.ts`, tests that start processes (servers, redis-server, nginx,
 *   Python, a pseudo-terminal). They may read dist/ (`npm test` builds first).
 * - `package`: everything under test/package/, checks on what npm ships: dist/, its declarations,
 *   the docs' code blocks, the bundles. Whole-program type checks take tens of seconds, so this
 *   project's budget per test is 10 minutes: its verdicts never depend on the machine's speed.
 * - `unit`: every other `*.test.ts`, in process. test/unit.setup.ts fails any unit test that starts
 *   a child process, naming the suffix to use, so a misfiled test cannot pass silently, and
 *   test/architecture/testLayout.test.ts fails a folder that mirrors no src/ folder.
 * Type tests (`*.test-d.ts`) are checked by `npm run typecheck`, the one whole-program check.
 */
export default defineConfig({
  resolve: {
    // Tests and examples import the library by its public name, served from source.
    alias: [
      { find: /^mcp-resolve$/, replacement: src('index.ts') },
      {
        find: /^mcp-resolve\/(testing|mrtr|node|redis|otel|contracts|client|workers)$/,
        replacement: src('$1/index.ts'),
      },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits up to 30 s (vitest's default is 1 s): a poll passes as soon as its value
    // comes, so only a starved machine waits longer, and it is never failed for being slow.
    expect: { poll: { timeout: 30_000 } },
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.int.test.ts', 'test/package/**'],
          setupFiles: ['test/unit.setup.ts'],
          // One module graph per worker: loading the SDK and zod once instead of once per file
          // takes `npm run test:unit` from about 100 s of CPU to about 20.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.int.test.ts'],
          exclude: ['test/package/**'],
          // Processes start slower on a loaded machine; the default budget per test is 2 minutes.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'package',
          include: ['test/package/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
