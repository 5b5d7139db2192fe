/**
 * Docs that compile: every ```ts block of README.md, docs/ and contributing/ type-checks against the built
 * package (imports of `mcp-resolve/...` resolve through package.json exports to dist/), and every
 * ```ts run block runs. Errors point at the Markdown file and line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

import { docBlocks, type DocBlock } from '../../scripts/lib/docBlocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Inside the package (and outside node_modules), so `mcp-resolve` resolves to this package's own
// exports, its dist/, for the compiler and at run time alike.
const workDir = join(root, '.docs-check');
/** Every Markdown file under `folder` (relative to the root), depth first; generated output left out. */
function markdownUnder(folder: string): string[] {
  if (!existsSync(join(root, folder))) return [];
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return path === 'docs/reference/api' ? [] : markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}
const files = ['README.md', ...markdownUnder('docs'), ...markdownUnder('contributing')];
const blocks = files.flatMap((file) => docBlocks(root, file));

function moduleName(block: DocBlock): string {
  return join(workDir, `${block.file.replace(/[/.]/g, '_')}_L${String(block.line)}.ts`);
}

/** A diagnostic as `file.md:line: TSnnnn message`. */
function located(diagnostic: ts.Diagnostic, byModule: ReadonlyMap<string, DocBlock>): string {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
  const source = diagnostic.file;
  if (source === undefined || diagnostic.start === undefined) return `TS${String(diagnostic.code)} ${text}`;
  const { line } = source.getLineAndCharacterOfPosition(diagnostic.start);
  const block = byModule.get(source.fileName);
  const where =
    block === undefined ? `${source.fileName}:${String(line + 1)}` : `${block.file}:${String(block.line + line)}`;
  return `${where}: TS${String(diagnostic.code)} ${text}`;
}

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'index.d.ts'))) throw new Error('dist/ is missing: run `npm run build` first');
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
});

describe('docs code blocks', () => {
  it('every TypeScript block of README.md, docs/ and contributing/ type-checks against the built package', () => {
    const byModule = new Map<string, DocBlock>();
    for (const block of blocks.filter((candidate) => candidate.kind !== 'fragment')) {
      const path = moduleName(block);
      writeFileSync(path, block.code);
      byModule.set(path, block);
    }
    const program = ts.createProgram([...byModule.keys()], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts'],
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      moduleDetection: ts.ModuleDetectionKind.Force,
    });
    const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => located(diagnostic, byModule));
    expect(errors).toEqual([]);
    expect(byModule.size).toBeGreaterThan(0);
    expect(files).toContain('docs/guides/resolvers.md');
  });

  it.each(
    blocks
      .filter((block) => block.kind === 'run')
      .map((block) => [`${block.file}:${String(block.line)}`, block] as const),
  )('%s runs', (_where, block) => {
    const path = moduleName(block).replace(/\.ts$/, '.run.ts');
    writeFileSync(path, block.code);
    const run = spawnSync(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path], {
      cwd: root,
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
