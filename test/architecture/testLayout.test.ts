/**
 * test/ is shaped like src/, and every test file falls into one vitest project by its name alone
 * (vitest.config.ts): `*.int.test.ts` is `integration`, test/package/ is `package`, the rest is
 * `unit`. A folder that mirrors nothing, a test file no project picks up, or a unit test that
 * imports what starts processes fails here, naming the fix.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TEST = join(ROOT, 'test');
/** Folders of test/ that test something other than one src/ folder. */
const BESIDE_SRC = new Set(['architecture', 'contracts', 'examples', 'fixtures', 'package', 'stories']);
const TEST_FILE = /\.(int\.)?test\.ts$|\.test-d\.ts$/;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? [join(dir, entry.name) + sep, ...walk(join(dir, entry.name))] : [join(dir, entry.name)],
  );
}

const entries = walk(TEST).map((path) => relative(TEST, path).split(sep).join('/'));
const folders = entries.filter((path) => path.endsWith('/')).map((path) => path.slice(0, -1));
const files = entries.filter((path) => !path.endsWith('/'));

describe('the layout of test/', () => {
  it('mirrors src/: each folder is a src/ folder, fixtures, or one of the folders beside src', () => {
    const strays = folders.filter((folder) => {
      const parts = folder.split('/');
      if (BESIDE_SRC.has(parts[0] ?? '') || parts.includes('fixtures')) return false;
      return !existsSync(join(ROOT, 'src', ...parts));
    });
    expect(strays, 'move each test to test/<the src folder it tests>/').toEqual([]);
  });

  it('names every test file so that a vitest project runs it', () => {
    const unrun = files.filter((file) => /\.(test|spec)\b/.test(file) && !TEST_FILE.test(file));
    expect(unrun, 'name test files *.test.ts (unit, package) or *.int.test.ts (integration)').toEqual([]);
  });

  it('keeps unit test files free of process starters (the runtime guard is test/unit.setup.ts)', () => {
    const unit = files.filter(
      (file) => file.endsWith('.test.ts') && !file.endsWith('.int.test.ts') && !file.startsWith('package/'),
    );
    const starting = unit.filter((file) =>
      /from '(node:)?child_process'|fixtures\/redisServer\.js'/.test(readFileSync(join(TEST, file), 'utf8')),
    );
    expect(starting, 'a test that starts processes is named *.int.test.ts').toEqual([]);
  });
});
