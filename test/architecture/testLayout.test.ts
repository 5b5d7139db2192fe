/**
 * test/ is shaped like src/, and every test file falls into one vitest project by its name alone
 * (vitest.config.ts): `*.int.test.ts` is `integration`, test/package/ is `package`, the rest is
 * `unit`. A folder that mirrors nothing, a test file no project picks up, or a unit test that
 * imports what starts processes fails here, naming the fix. test/ mirrors src/ by file where a test
 * targets one module: a test named after a src/ module (`<name>.test.ts`, `<name>.int.test.ts`)
 * sits in the mirror of that module's folder (`test/node/stdio.int.test.ts` tests `src/node/stdio.ts`),
 * unless its name names a behaviour that only shares the module's name (listed below, with why).
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
const SRC = join(ROOT, 'src');

/** Tests whose name is a src/ module's elsewhere but that test a behaviour across modules, each with what it tests. */
const BEHAVIOUR_NAMED: ReadonlyMap<string, string> = new Map([
  ['resolvers/errors.test.ts', "how resolvers' errors reach the client (resolvers.md §13), not src/errors.ts"],
  ['resolvers/registration.test.ts', 'the graph analysed when a tool is registered (resolvers/graph.ts), not round/'],
  ['state/inbound.test.ts', "every inbound requestState checked before a handler runs, not hosting's inbound observer"],
  ['state/fleet.int.test.ts', "two processes sharing keys complete each other's rounds, not the Redis fleet"],
  ['otel/context.test.ts', 'trace context in and out, not src/context.ts'],
  ['otel/tasks.test.ts', "task status changes on the otel observer, not testing/'s task helpers"],
  ['otel/stdio.int.test.ts', 'spans of a stdio server, not the stdio host itself'],
  ['mrtr/primitives.test.ts', 'the mrtr primitives together, not state/primitives.ts'],
  ['tasks/answerPage.test.ts', "tasks asking through the answer page, not testing/'s page helper"],
  ['hosting/fleet.test.ts', 'legacy sessions across instances with the in-memory hub, not the Redis fleet'],
]);

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

  it('mirrors src/ by file: a test named after a module sits in the mirror of its folder', () => {
    const modules = walk(SRC)
      .map((path) => relative(SRC, path).split(sep).join('/'))
      .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'));
    const misplaced = files.flatMap((file) => {
      const match = /^(?:(.*)\/)?([^/]+?)(?:\.int)?\.test(?:-d)?\.ts$/.exec(file);
      if (match === null || BEHAVIOUR_NAMED.has(file)) return [];
      const folder = match[1] ?? '';
      if (BESIDE_SRC.has(folder.split('/')[0] ?? '') || folder.split('/').includes('fixtures')) return [];
      const name = `${match[2] ?? ''}.ts`;
      if (modules.includes(folder === '' ? name : `${folder}/${name}`)) return [];
      const elsewhere = modules.filter((module) => module === name || module.endsWith(`/${name}`));
      return elsewhere.map((module) => `${file} tests src/${module}: move it to test/${module.slice(0, -3)}.test.ts`);
    });
    expect(misplaced, 'or, when it tests a behaviour that only shares the name, list it in BEHAVIOUR_NAMED').toEqual(
      [],
    );
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
