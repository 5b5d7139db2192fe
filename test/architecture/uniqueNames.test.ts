/**
 * One name per thing: no two files of src/ declare the same top-level name (a function, class,
 * interface, type alias, enum, or a `const`/`let`/`var` binding; exported or not), so a name found
 * in a stack trace, a review or a search means one declaration. A file may declare a name twice
 * when the language merges them (overloads, a class and its interface). Read with the TypeScript
 * compiler; a shared name fails naming the files.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { modules, SRC } from './srcModules.js';

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : bindingNames(element.name)));
}

/** The names `statement` declares at the top of its module. */
function declaredNames(statement: ts.Statement): string[] {
  if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) {
    return statement.name === undefined ? [] : [statement.name.text];
  }
  if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) {
    return [statement.name.text];
  }
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((declaration) => bindingNames(declaration.name));
  }
  return [];
}

/** Every top-level name of src/, with the files (relative to src/, `/`-separated) that declare it. */
function declarations(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of modules(SRC)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const path = relative(SRC, file).split(sep).join('/');
    for (const name of new Set(source.statements.flatMap(declaredNames))) {
      found.set(name, [...(found.get(name) ?? []), path]);
    }
  }
  return found;
}

const found = declarations();
const shared = [...found].filter(([, files]) => files.length > 1);

describe('the top-level names of src/', () => {
  it('are read from every module', () => {
    expect(found.size).toBeGreaterThan(500);
    expect(found.get('McpResolveServer')).toEqual(['server/server.ts']);
  });

  it('are each declared in one file', () => {
    const unexpected = shared.map(([name, files]) => `${name}: ${files.join(', ')}`);
    expect(unexpected, 'rename all but one, after what each one is').toEqual([]);
  });
});
