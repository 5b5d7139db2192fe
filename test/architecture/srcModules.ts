/** The modules of src/ the architecture tests read: one walk for all of them. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
