import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests and examples import the library by its public name, served from source.
    alias: [
      { find: /^mcp-resolve$/, replacement: src('index.ts') },
      {
        find: /^mcp-resolve\/(testing|mrtr|node|redis|otel|fleet|state|tasks|telemetry)$/,
        replacement: src('$1/index.ts'),
      },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
