/**
 * Everything the package says resolves in the package: every relative link (and its `#anchor`) of
 * a shipped Markdown file points at a shipped file and heading, and no shipped doc, declaration or
 * module cites a machine path, a contract section (`§`) or a repository file the tarball leaves out.
 * The file list is `npm pack --dry-run`'s, so `package.json` "files" is what is tested.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The files `npm pack` would put in the tarball, as it stands (dist/ must be built). */
function packed(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  const [entry] = JSON.parse(out) as { files: { path: string }[] }[];
  return (entry?.files ?? []).map((file) => file.path);
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, duplicates numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = (heading[1] ?? '')
      .toLowerCase()
      .replace(/<[^>]*>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${String(count)}`);
  }
  return anchors;
}

/** Markdown without its fenced blocks' contents (links there are code, not links). */
function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** The targets of inline links and images, `[text](target)` and `![alt](target "title")`. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] ?? '');
}

const MACHINE_PATH = /(?<![\w.:/-])(?:\/(?:work|home|tmp|root|Users|var\/folders)\/|[A-Z]:\\)/;
/** Repository folders and files that never ship. */
const REPOSITORY_ONLY =
  /(?<![\w.@/-])(?:examples|bench|scripts|test|interop|contributing|etc|\.changeset|\.ci|src)\/[\w.*<>/-]*|(?<![\w/-])(?:tsconfig(?:\.build)?\.json|vitest\.config\.ts|typedoc\.json|eslint\.config\.js)\b/g;

/** Citations of files or sections the package does not contain, in one shipped file's text. */
function unshippedCitations(file: string, text: string, shipped: ReadonlySet<string>): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const where = `${file}:${String(index + 1)}`;
    if (MACHINE_PATH.test(line)) found.push(`${where}: a machine path: ${line.trim()}`);
    if (line.includes('§')) found.push(`${where}: a section sign (cite a shipped guide's heading): ${line.trim()}`);
    for (const match of line.matchAll(REPOSITORY_ONLY)) {
      found.push(`${where}: cites ${match[0]}, which the package does not contain`);
    }
    for (const match of line.matchAll(/(?<![\w/.-])((?:[\w-]+\/)*[\w-]+\.md)\b/g)) {
      const cited = match[1] ?? '';
      const resolves =
        shipped.has(cited) ||
        shipped.has(normalize(join(dirname(file), cited))) ||
        (!cited.includes('/') && [...shipped].some((path) => path.endsWith(`/${cited}`) || path === cited));
      if (!resolves) found.push(`${where}: cites ${cited}, which the package does not contain`);
    }
  });
  return found;
}

describe('the shipped docs and messages', () => {
  if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const files = packed();
  const shipped = new Set(files);
  const markdown = files.filter((file) => file.endsWith('.md'));

  it('ship the docs index, the guides, the error reference, the changelog, and no measurement or contributor notes', () => {
    expect(markdown).toContain('README.md');
    expect(markdown).toContain('docs/README.md');
    expect(markdown).toContain('docs/reference/errors.md');
    expect(markdown).toContain('CHANGELOG.md');
    expect(files.filter((file) => /^(bench|contributing|examples|test|scripts)\//.test(file))).toEqual([]);
    expect(files.filter((file) => /performance|results|architecture|sdk-seams/.test(file))).toEqual([]);
  });

  it('every relative link of a shipped Markdown file resolves to a shipped file, and its anchor to a heading', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      for (const target of linkTargets(readFileSync(join(root, file), 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
          if (!/^(https|mailto):/.test(target)) broken.push(`${file}: ${target} (only https:// addresses are public)`);
          continue;
        }
        const [path = '', anchor] = target.split('#');
        const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
        if (!shipped.has(resolved)) {
          broken.push(`${file}: ${target} (${resolved} is not in the package)`);
          continue;
        }
        if (anchor !== undefined && resolved.endsWith('.md')) {
          if (!anchorsOf(readFileSync(join(root, resolved), 'utf8')).has(anchor)) {
            broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
          }
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('no shipped doc, declaration or module cites a machine path, a § section or an unshipped file', () => {
    const found = files
      .filter((file) => /\.(md|js|d\.ts)$/.test(file))
      .flatMap((file) => unshippedCitations(file, readFileSync(join(root, file), 'utf8'), shipped));
    expect(found).toEqual([]);
  });

  it('the error reference lists every McpResolveError code', () => {
    const source = readFileSync(join(root, 'src', 'errors.ts'), 'utf8');
    const union = /export type McpResolveErrorCode =([\s\S]*?'[a-z_]+';)/.exec(source);
    const codes = [...(union?.[1] ?? '').matchAll(/\|\s*'([a-z_]+)'/g)].map((match) => match[1] ?? '');
    expect(codes.length).toBeGreaterThan(5);
    const reference = readFileSync(join(root, 'docs', 'reference', 'errors.md'), 'utf8');
    expect(codes.filter((code) => !reference.includes(`| \`${code}\``))).toEqual([]);
  });

  it('the README reads next at most 8 links', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = /^## Read next\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? '';
    expect(section).not.toBe('');
    expect(linkTargets(section).length).toBeLessThanOrEqual(8);
  });
});
