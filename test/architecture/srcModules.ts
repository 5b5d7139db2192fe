/** The modules of src/ the architecture tests read: one walk for all of them. */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

/** The absolute path of src/. */
export const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Every `.ts` module under `dir` (src/ by default), as absolute paths. */
export function modules(dir: string = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The src/ modules `file` imports (relative specifiers, `import type` and `export … from` included, `.js` mapped back to `.ts`). */
export function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
}
