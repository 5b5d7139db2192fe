import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

const read = (file: string): unknown => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));

describe('entry points', () => {
  it('the HTML reference documents every export of package.json', () => {
    const { exports } = read('package.json') as { exports: Record<string, { types: string }> };
    const { entryPoints } = read('typedoc.json') as { entryPoints: string[] };
    const fromExports = Object.values(exports).map(({ types }) =>
      types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'),
    );
    expect([...entryPoints].sort()).toEqual(fromExports.sort());
  });
});
