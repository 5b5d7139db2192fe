/**
 * Small rooms: no file in src/ over 250 lines, and no function over 100 lines measured whole (a
 * closure's inner functions count toward it: a factory is charged for everything it holds).
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { modules, SRC } from './srcModules.js';

const MAX_FILE_LINES = 250;
const MAX_FUNCTION_LINES = 100;

const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessor(node) ||
    ts.isSetAccessor(node)
  );
}

/** Every function of `file` longer than the limit, as `file:line name (N lines)`, measured whole (inner functions included). */
function longFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const found: string[] = [];
  source.forEachChild(function visit(node) {
    if (isFunctionLike(node)) {
      const start = lineOf(node.getStart(source));
      const lines = lineOf(node.getEnd()) - start + 1;
      const name = node.name?.getText(source) ?? '(anonymous)';
      if (lines > MAX_FUNCTION_LINES) found.push(`${relative(SRC, file)}:${start + 1} ${name} (${lines} lines)`);
    }
    node.forEachChild(visit);
  });
  return found;
}

describe('src/ is made of small rooms', () => {
  const files = modules(SRC);

  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    const over = files
      .map((file) => ({ name: relative(SRC, file), lines: lineCount(readFileSync(file, 'utf8')) }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ name, lines }) => `${name} (${lines} lines)`);
    expect(over).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines, inner functions included`, () => {
    expect(files.flatMap(longFunctions)).toEqual([]);
  });
});
