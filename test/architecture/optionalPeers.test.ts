/**
 * Optional peers stay optional on every runtime: no module that an entry reaches imports an
 * optional peer (package.json `peerDependenciesMeta`) in a way bundlers resolve (a static value
 * import, an `export … from`, or a literal `import('…')`), unless that entry is the one made for the
 * peer. Everywhere else a peer is loaded with `loadPeer(name, api, () => import(name).catch(peerMissing))`:
 * esbuild bundles it where installed and leaves it to the runtime where not (contributing/architecture.md,
 * "Optional peers"). And src/ imports no package that package.json
 * neither depends on nor peers (a dev dependency would be missing from every install).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { modules, SRC } from './srcModules.js';

const ROOT = join(SRC, '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, { import: string }>;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** Every optional peer the package declares. */
const OPTIONAL = Object.keys(manifest.peerDependenciesMeta).filter(
  (name) => manifest.peerDependenciesMeta[name]?.optional,
);

/** The peers each entry exists for: only its modules may import them so that bundlers follow. */
const OWNED: Readonly<Record<string, readonly string[]>> = {
  'mcp-resolve/node': ['@modelcontextprotocol/node'],
  'mcp-resolve/otel': ['@opentelemetry/api'],
  'mcp-resolve/redis': ['redis'],
  'mcp-resolve/testing': ['@modelcontextprotocol/client'],
  'bin mcp-resolve': ['@modelcontextprotocol/node', '@modelcontextprotocol/client'],
};

/** The source module of a built file (`./dist/a/index.js` → `src/a/index.ts`). */
const sourceOf = (built: string) => join(ROOT, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));

/** Every entry of the package (exports and bins), by the name a user imports or runs, with its source module. */
const ENTRIES: ReadonlyMap<string, string> = new Map([
  ...Object.entries(manifest.exports).map(([key, value]): [string, string] => [
    `mcp-resolve${key.slice(1)}`,
    sourceOf(value.import),
  ]),
  ...Object.entries(manifest.bin).map(([name, built]): [string, string] => [`bin ${name}`, sourceOf(built)]),
]);

/** What a module imports that stays in a bundle: its relative modules, and its bundler-visible optional peer imports. */
interface BundledImports {
  readonly relatives: string[];
  /** The packages of its bare specifiers (`node:*` built-ins aside). */
  readonly packages: string[];
  readonly peers: { readonly peer: string; readonly how: string }[];
}

/**
 * The imports of `text` (a module at `file`) that a bundler follows; `import type`, `export type` and
 * computed `import(x)` are not, and a literal `import('peer').catch(…)` does not fail a bundle without the peer.
 */
function bundledImports(file: string, text: string): BundledImports {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const relatives: string[] = [];
  const packages: string[] = [];
  const peers: { peer: string; how: string }[] = [];
  const add = (specifier: string, how: string) => {
    if (specifier.startsWith('.')) relatives.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
    else if (!specifier.startsWith('node:')) {
      packages.push(
        specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/'),
      );
    }
    const peer = OPTIONAL.find((name) => specifier === name || specifier.startsWith(`${name}/`));
    // An import() with .catch() is one bundlers leave to the runtime when the peer is missing.
    if (peer !== undefined && how !== 'import(…).catch') peers.push({ peer, how: `${how} '${specifier}'` });
  };
  source.forEachChild(function visit(node) {
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.importClause?.isTypeOnly !== true
    ) {
      add(node.moduleSpecifier.text, 'import … from');
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      !node.isTypeOnly
    ) {
      add(node.moduleSpecifier.text, 'export … from');
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      const caught =
        ts.isPropertyAccessExpression(node.parent) &&
        node.parent.name.text === 'catch' &&
        ts.isCallExpression(node.parent.parent);
      if (argument !== undefined && ts.isStringLiteralLike(argument)) {
        add(argument.text, caught ? 'import(…).catch' : 'import(…)');
      }
    }
    node.forEachChild(visit);
  });
  return { relatives, packages, peers };
}

/** Every "entry reaches module, which imports peer" where the entry is not made for that peer. */
function violations(): string[] {
  const read = new Map<string, BundledImports>();
  const importsOf = (file: string) => {
    let found = read.get(file);
    if (found === undefined) {
      found = bundledImports(file, readFileSync(file, 'utf8'));
      read.set(file, found);
    }
    return found;
  };
  const found: string[] = [];
  for (const [entry, start] of ENTRIES) {
    const seen = new Set<string>([start]);
    for (const file of seen) {
      const { relatives, peers } = importsOf(file);
      for (const next of relatives) seen.add(next);
      for (const { peer, how } of peers) {
        if (OWNED[entry]?.includes(peer) === true) continue;
        found.push(
          `${entry} reaches src/${relative(SRC, file)}, which has ${how}: load it with loadPeer('${peer}', api, () => import('${peer}').catch(peerMissing)), or move the code into the entry made for ${peer}`,
        );
      }
    }
  }
  return found;
}

describe('optional peers', () => {
  it('are imported so that bundlers follow them only in the entry made for each', () => {
    expect(OPTIONAL.length).toBeGreaterThan(5);
    expect(ENTRIES.get('mcp-resolve')).toBe(join(SRC, 'index.ts'));
    expect(violations()).toEqual([]);
  });

  it('are, with the dependencies and required peers, the only packages src/ imports so that bundlers follow', () => {
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
    const undeclared = modules(SRC).flatMap((file) =>
      bundledImports(file, readFileSync(file, 'utf8'))
        .packages.filter((name) => !declared.has(name))
        .map((name) => `src/${relative(SRC, file)} imports ${name}, which package.json neither depends on nor peers`),
    );
    expect(undeclared).toEqual([]);
  });

  it('names every owned peer among the optional peers, for an entry that exists', () => {
    for (const [entry, peers] of Object.entries(OWNED)) {
      expect(ENTRIES.has(entry), entry).toBe(true);
      for (const peer of peers) expect(OPTIONAL, `${entry} owns ${peer}`).toContain(peer);
    }
  });

  it('sees the imports bundlers follow, and not the ones they leave alone', () => {
    const file = join(SRC, 'x.ts');
    const text = [
      "import type { JWTPayload } from 'jose';",
      "import { type JWK } from 'jose/a';",
      "export { decodeJwt } from 'jose';",
      "export type { Client } from '@modelcontextprotocol/client';",
      "const oidc = await import('openid-client');",
      "const jose = await loadPeer('jose', 'verify()', () => import('jose').catch(peerMissing));",
      "import { z } from 'zod';",
      "import { helper } from './y.js';",
    ].join('\n');
    const { relatives, packages, peers } = bundledImports(file, text);
    expect(packages).toEqual(['jose', 'jose', 'openid-client', 'jose', 'zod']);
    expect(peers.map(({ how }) => how)).toEqual([
      "import … from 'jose/a'",
      "export … from 'jose'",
      "import(…) 'openid-client'",
    ]);
    expect(relatives).toEqual([join(SRC, 'y.ts')]);
  });
});
