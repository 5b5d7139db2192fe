/**
 * Small rooms: no file in src/ over 250 lines, and no function over 80 lines of its own (a closure's
 * inner functions are measured on their own, so a factory is not charged for them).
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { modules, SRC } from './srcModules.js';

const MAX_FILE_LINES = 250;
const MAX_FUNCTION_LINES = 80;

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

/** Every function of `file` longer than the limit, as `file:line name (N lines)`, counting its own lines only. */
function longFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const span = (node: ts.Node) => lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
  const nested = (node: ts.Node): number => {
    let lines = 0;
    node.forEachChild(function visit(child) {
      if (isFunctionLike(child)) lines += span(child);
      else child.forEachChild(visit);
    });
    return lines;
  };
  const found: string[] = [];
  source.forEachChild(function visit(node) {
    if (isFunctionLike(node)) {
      const own = span(node) - (node.body === undefined ? 0 : nested(node.body));
      const name = node.name?.getText(source) ?? '(anonymous)';
      if (own > MAX_FUNCTION_LINES)
        found.push(`${relative(SRC, file)}:${lineOf(node.getStart(source)) + 1} ${name} (${own} lines)`);
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

  it(`has no function over ${MAX_FUNCTION_LINES} lines of its own`, () => {
    expect(files.flatMap(longFunctions)).toEqual([]);
  });
});
