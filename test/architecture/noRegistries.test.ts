/**
 * Every collaboration in src/ is an import or an argument. Outside src/sdkSeams/ (where each
 * run-time patch of the SDK lives, contributing/sdk-seams.md), no module keys a field or a brand
 * with a symbol, keeps a WeakMap that is not a cache (a `// Cache:` comment above it says what it
 * memoizes), defines properties on or assigns over the methods of another object (own properties
 * of the library's records go through `setOwn` in src/ownKeys.ts), or imports a module for its
 * side effects. A finding names the file, the line and the fix.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';

import { describe, expect, it } from 'vitest';

import { modules, SRC } from './srcModules.js';

/** Where the run-time patches of the SDK live. */
const SEAMS = 'sdkSeams/';
/** Generated modules, not written here. */
const GENERATED: ReadonlySet<string> = new Set(['apps/appBundle.ts']);
/** The one module that defines own properties (on records built from client JSON, for keys such as `__proto__`). */
const OWN_PROPERTIES = 'ownKeys.ts';

/** A rule over a module's lines; `findings` answers the 0-based indexes of the lines at fault. */
interface Rule {
  readonly name: string;
  readonly fix: string;
  findings(lines: readonly string[], module: string): number[];
}

/** Whether `line` is (part of) a comment rather than code. */
const isComment = (line: string): boolean => /^\s*(\/\/|\/\*|\*)/.test(line);

/** The indexes of the code lines of `lines` that match `pattern`. */
function matching(lines: readonly string[], pattern: RegExp): number[] {
  return lines.flatMap((line, index) => (!isComment(line) && pattern.test(line) ? [index] : []));
}

/** A local sentinel, `const NAME = Symbol('…');`, with the name it binds. */
const SENTINEL = /^\s*const (\w+) = Symbol\('[^']*'\);\s*$/;

const RULES: readonly Rule[] = [
  {
    name: 'symbol keys and brands',
    fix: 'use an ES private field, a plain string field or an explicit argument (a local sentinel const is allowed)',
    findings(lines) {
      const text = lines.join('\n');
      return matching(lines, /\bSymbol(\.for)?\(/).filter((index) => {
        const name = SENTINEL.exec(lines[index] ?? '')?.[1];
        return name === undefined || new RegExp(`\\[${name}\\]|\\b${name} in\\b`).test(text);
      });
    },
  },
  {
    name: 'WeakMaps that are not caches',
    fix: "pass the state explicitly; a memo cache gets a '// Cache: <what it memoizes, why weak>' comment right above",
    findings(lines) {
      return matching(lines, /\bnew WeakMap\b/).filter((index) => {
        let first = index;
        while (first > 0 && /^\s*\/\//.test(lines[first - 1] ?? '')) first -= 1;
        return first === index || !/^\s*\/\/ Cache: /.test(lines[first] ?? '');
      });
    },
  },
  {
    name: 'patches of other objects',
    fix: `move the patch of the SDK into src/${SEAMS} (one module per seam, pinned by a test on a plain McpServer); own properties of a record go through setOwn`,
    findings(lines, module) {
      const defines = module === OWN_PROPERTIES ? [] : matching(lines, /\b(Object|Reflect)\.definePropert(y|ies)\(/);
      const overwrites = matching(
        lines,
        /\.(send|setRequestHandler|setNotificationHandler|request|notification)\s*=[^=]/,
      );
      return [...defines, ...overwrites].sort((a, b) => a - b);
    },
  },
  {
    name: 'side-effect imports',
    fix: 'import what the module uses by name, or pass it as an argument',
    findings(lines) {
      return matching(lines, /^\s*import\s+['"][^'"]+['"]\s*;?\s*$/);
    },
  },
];

const sources = modules()
  .map((path) => relative(SRC, path).split(sep).join('/'))
  .filter((module) => !module.startsWith(SEAMS) && !GENERATED.has(module))
  .map((module) => ({ module, lines: readFileSync(`${SRC}/${module}`, 'utf8').split('\n') }));

/** Every finding of `rule` in `read` (modules of src/ and their lines), as `module:line`. */
function findingsOf(rule: Rule, read: ReadonlyArray<{ module: string; lines: readonly string[] }>): string[] {
  return read.flatMap(({ module, lines }) => rule.findings(lines, module).map((index) => `${module}:${index + 1}`));
}

describe('no registries, global setters, side-effect imports or SDK patches in src/ outside sdkSeams/', () => {
  it.each(RULES.map((rule) => [rule.name, rule] as const))('no %s', (_name, rule) => {
    expect(findingsOf(rule, sources), rule.fix).toEqual([]);
  });

  it('each rule finds what it names (the rules themselves, on samples)', () => {
    const sample = (module: string, ...lines: string[]) => [{ module, lines }];
    const found = (name: string, module: string, ...lines: string[]) => {
      const rule = RULES.find((candidate) => candidate.name === name);
      return rule === undefined ? expect.fail(name) : findingsOf(rule, sample(module, ...lines));
    };
    expect(found('symbol keys and brands', 'a.ts', "const KEY = Symbol('k');", 'x[KEY] = 1;')).toEqual(['a.ts:1']);
    expect(found('symbol keys and brands', 'a.ts', "const B = Symbol.for('b');")).toEqual(['a.ts:1']);
    expect(found('symbol keys and brands', 'a.ts', "const AGAIN = Symbol('again');", 'v === AGAIN')).toEqual([]);
    expect(found('WeakMaps that are not caches', 'a.ts', '// state', 'const m = new WeakMap();')).toEqual(['a.ts:2']);
    expect(found('WeakMaps that are not caches', 'a.ts', '// Cache: x, weak.', '// more', 'new WeakMap()')).toEqual([]);
    expect(found('patches of other objects', 'a.ts', "Object.defineProperty(server, 'x', {});")).toEqual(['a.ts:1']);
    expect(found('patches of other objects', 'a.ts', 'transport.send = (m) => m;')).toEqual(['a.ts:1']);
    expect(found('patches of other objects', OWN_PROPERTIES, 'Object.defineProperty(record, key, {});')).toEqual([]);
    expect(found('side-effect imports', 'a.ts', "import './patch.js';", "import { x } from './x.js';")).toEqual([
      'a.ts:1',
    ]);
  });
});
