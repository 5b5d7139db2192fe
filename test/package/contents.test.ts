/**
 * Issue 23 item 5: the packed tarball carries what the README points to (docs/, LICENSE) and no
 * source map that points at sources it does not ship.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The files `npm pack` would put in the tarball (dist/ as it stands; the patterns are what is tested). */
function packed(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  const [entry] = JSON.parse(out) as { files: { path: string }[] }[];
  return (entry?.files ?? []).map((file) => file.path);
}

/** The build's resolved compiler options. */
function buildOptions(): Record<string, unknown> {
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const out = execFileSync(npx, ['tsc', '-p', 'tsconfig.build.json', '--showConfig'], { cwd: root, encoding: 'utf8' });
  return (JSON.parse(out) as { compilerOptions: Record<string, unknown> }).compilerOptions;
}

describe('the package', () => {
  const files = packed();

  it('ships LICENSE and every guide the README links to', () => {
    expect(files).toContain('LICENSE');
    for (const guide of ['resolvers', 'request-state', 'testing', 'tasks', 'deploy', 'scaling']) {
      expect(files).toContain(`docs/guides/${guide}.md`);
    }
  });

  it('builds no source maps (their sources are not shipped)', () => {
    const options = buildOptions();
    expect(options.sourceMap === true || options.declarationMap === true).toBe(false);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
  });
});
