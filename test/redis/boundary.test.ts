/** The core never depends on the optional `redis` peer: only `src/redis` imports it. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('the redis boundary', () => {
  it('keeps every import of redis inside src/redis', () => {
    const importers = sources(SRC).filter((file) => /from '(redis|@redis\/[^']+)'/.test(readFileSync(file, 'utf8')));
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((file) => !file.startsWith(join(SRC, 'redis')))).toEqual([]);
  });
});
