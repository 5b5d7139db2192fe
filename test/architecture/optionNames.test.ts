/**
 * Every option an `invalid_options` error names is a real option. Read with the TypeScript
 * checker: the `option` of every error's data (`{ api, option }`, followed through the helpers that
 * pass it on, such as `positiveInteger`, on every path of calls), and the option-looking names in
 * every `invalid_options` message (`options.x`, dotted camelCase paths such as
 * `requestState.replayStore`, camelCase words), are looked up among the parameters of the function
 * the error's `api` names (`'serveHttp()'`, `'new McpResolveServer()'`) and the properties of their
 * types, two levels deep (`tasks.ttlMs`, `requestState.keys`); a message may also name another
 * api's option (any `…Options` type of src/). A name that is not there fails, naming the file and line.
 */
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { modules, SRC } from './srcModules.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** camelCase words of messages that are not options of ours, each with its reason. */
const NOT_OPTIONS: ReadonlyMap<string, string> = new Map([
  ['maxBufferSize', "the SDK's StdioServerTransport option, which serveStdio()'s message points to"],
  ['tokenId', 'a parameter of ReplayStore.consume(tokenId, expiresAt), the shape a replayStore must have'],
  ['expiresAt', 'a parameter of ReplayStore.consume(tokenId, expiresAt), the shape a replayStore must have'],
]);

const config = ts.getParsedCommandLineOfConfigFile(
  join(ROOT, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
);
if (config === undefined) throw new Error('tsconfig.json could not be read');
const program = ts.createProgram(modules(SRC), config.options);
const checker = program.getTypeChecker();
const sources = program.getSourceFiles().filter((source) => source.fileName.startsWith(SRC));

function where(node: ts.Node): string {
  const source = node.getSourceFile();
  const { line } = source.getLineAndCharacterOfPosition(node.getStart());
  return `${relative(SRC, source.fileName)}:${line + 1}`;
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** Every call and `new` of src/, by the name it calls (`f(…)`, `x.f(…)`, `new F(…)`). */
const callsByName = new Map<string, (ts.CallExpression | ts.NewExpression)[]>();
for (const source of sources) {
  walk(source, (node) => {
    if (!ts.isCallExpression(node) && !ts.isNewExpression(node)) return;
    const callee = node.expression;
    const name = ts.isIdentifier(callee)
      ? callee.text
      : ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : undefined;
    if (name !== undefined) callsByName.set(name, [...(callsByName.get(name) ?? []), node]);
  });
}

/** The name `owner` is called by: its own, its class's for a constructor, its variable's for `const f = () => …`. */
function nameOf(owner: ts.SignatureDeclaration): { name: ts.Identifier; target: ts.Node } | undefined {
  if (ts.isConstructorDeclaration(owner)) {
    return owner.parent.name === undefined ? undefined : { name: owner.parent.name, target: owner.parent };
  }
  if (owner.name !== undefined) return ts.isIdentifier(owner.name) ? { name: owner.name, target: owner } : undefined;
  const variable = owner.parent;
  if (ts.isVariableDeclaration(variable) && ts.isIdentifier(variable.name))
    return { name: variable.name, target: variable };
  return undefined;
}

/** The calls of src/ that call `owner` (a function, a method, a class's constructor, or a function held by a `const`). */
const callsOf = (owner: ts.SignatureDeclaration): (ts.CallExpression | ts.NewExpression)[] => {
  const named = nameOf(owner);
  if (named === undefined) return [];
  return (callsByName.get(named.name.text) ?? []).filter((call) => {
    const callee = ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression;
    const symbol = checker.getSymbolAtLocation(callee);
    const resolved =
      symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return resolved?.declarations?.includes(named.target as ts.Declaration) === true;
  });
};

/** The declaration `identifier` refers to (through imports and shorthand properties). */
function declarationOf(identifier: ts.Identifier): ts.Declaration | undefined {
  const symbol = ts.isShorthandPropertyAssignment(identifier.parent)
    ? checker.getShorthandAssignmentValueSymbol(identifier.parent)
    : checker.getSymbolAtLocation(identifier);
  const resolved =
    symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return resolved?.valueDeclaration;
}

/** What a parameter stands for on one path of calls: the argument, read in its caller's bindings. */
interface Binding {
  readonly expression: ts.Expression;
  readonly scope: Scope;
}
type Scope = ReadonlyMap<ts.ParameterDeclaration, Binding>;

function enclosingFunction(node: ts.Node): ts.SignatureDeclaration | undefined {
  for (let at = node.parent; at !== undefined; at = at.parent) if (ts.isFunctionLike(at)) return at;
  return undefined;
}

/**
 * The ways `owner` is reached: for each path of calls into it (up to a few callers deep), its
 * parameters bound to that path's arguments. A function nothing in src/ calls by name (a callback)
 * sees the bindings of the function around it; one empty scope at the top.
 */
function scopesOf(owner: ts.SignatureDeclaration | undefined, depth = 0): Scope[] {
  if (owner === undefined || depth > 4) return [new Map()];
  const calls = callsOf(owner);
  if (calls.length === 0) return scopesOf(enclosingFunction(owner), depth + 1);
  return calls.flatMap((call) =>
    scopesOf(enclosingFunction(call), depth + 1).map((outer) => {
      const scope = new Map(outer);
      const args = call.arguments ?? [];
      owner.parameters.forEach((parameter, index) => {
        const argument = args[index] ?? parameter.initializer;
        if (argument !== undefined) scope.set(parameter, { expression: argument, scope: outer });
      });
      return scope;
    }),
  );
}

/** What an identifier stands for in `scope`: a bound parameter's argument, or a `const`'s initializer. */
function boundOf(identifier: ts.Identifier, scope: Scope): Binding | undefined {
  const declaration = declarationOf(identifier);
  if (declaration === undefined) return undefined;
  if (ts.isParameter(declaration)) return scope.get(declaration);
  if (ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined) {
    const constant = (ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const) !== 0;
    return constant ? { expression: declaration.initializer, scope } : undefined;
  }
  return undefined;
}

/** The string values `expression` may take in `scope`, or the expressions whose value cannot be read. */
function valuesOf(expression: ts.Expression, scope: Scope): { values: string[]; unread: ts.Expression[] } {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) {
    return { values: [expression.text], unread: [] };
  }
  if (ts.isParenthesizedExpression(expression)) return valuesOf(expression.expression, scope);
  if (ts.isConditionalExpression(expression)) {
    const [yes, no] = [valuesOf(expression.whenTrue, scope), valuesOf(expression.whenFalse, scope)];
    return { values: [...yes.values, ...no.values], unread: [...yes.unread, ...no.unread] };
  }
  const bound = ts.isIdentifier(expression) ? boundOf(expression, scope) : undefined;
  return bound === undefined ? { values: [], unread: [expression] } : valuesOf(bound.expression, bound.scope);
}

/** The literal text of a message in `scope`, following the parameters and constants it is built from. */
function textsOf(expression: ts.Expression, scope: Scope): string[] {
  const texts: string[] = [];
  walk(expression, (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push(node.text);
    else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) texts.push(node.text);
    else if (
      ts.isIdentifier(node) &&
      (ts.isTemplateSpan(node.parent) || ts.isBinaryExpression(node.parent) || node === expression)
    ) {
      const bound = boundOf(node, scope);
      if (bound !== undefined) texts.push(...textsOf(bound.expression, bound.scope));
    }
  });
  return texts;
}

/** The property paths of `type`, `depth` levels deep (`tasks`, `tasks.ttlMs`). */
const NOT_AN_OBJECT =
  ts.TypeFlags.StringLike |
  ts.TypeFlags.NumberLike |
  ts.TypeFlags.BigIntLike |
  ts.TypeFlags.BooleanLike |
  ts.TypeFlags.ESSymbolLike |
  ts.TypeFlags.Null |
  ts.TypeFlags.Undefined |
  ts.TypeFlags.Void |
  ts.TypeFlags.Any |
  ts.TypeFlags.Unknown;

function pathsOf(type: ts.Type, depth: number, prefix = ''): string[] {
  const members = type.isUnion() ? type.types : [type];
  return members.flatMap((member) => {
    if (member.flags & NOT_AN_OBJECT || member.getCallSignatures().length > 0) return [];
    return checker.getPropertiesOfType(member).flatMap((property) => {
      const path = `${prefix}${property.name}`;
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (depth <= 1 || declaration === undefined) return [path];
      const inner = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(property, declaration));
      return [path, ...pathsOf(inner, depth - 1, `${path}.`)];
    });
  });
}

/** The top-level function or class an `api` such as `'serveHttp()'` or `'new McpResolveServer()'` names. */
function apiDeclaration(api: string): ts.SignatureDeclaration | undefined {
  const name = /^(?:new )?([A-Za-z]\w*)\(\)$/.exec(api)?.[1];
  for (const source of sources) {
    for (const statement of source.statements) {
      if (ts.isFunctionDeclaration(statement) && statement.name?.text === name && statement.body !== undefined) {
        return statement;
      }
      if (ts.isClassDeclaration(statement) && statement.name?.text === name && api.startsWith('new ')) {
        return statement.members.find(ts.isConstructorDeclaration);
      }
    }
  }
  return undefined;
}

/** The options `api` takes: its parameters' names and their types' properties. */
const optionsCache = new Map<string, Set<string> | undefined>();
function optionsOf(api: string): Set<string> | undefined {
  if (optionsCache.has(api)) return optionsCache.get(api);
  const declaration = apiDeclaration(api);
  const options =
    declaration === undefined
      ? undefined
      : new Set(
          declaration.parameters.flatMap((parameter) => [
            parameter.name.getText(),
            ...pathsOf(checker.getNonNullableType(checker.getTypeAtLocation(parameter)), 2),
          ]),
        );
  optionsCache.set(api, options);
  return options;
}

interface Named {
  readonly at: string;
  readonly api: string;
  readonly name: string;
}

/** The value of property `key` of an object literal. */
function propertyOf(object: ts.ObjectLiteralExpression, key: string): ts.Expression | undefined {
  const property = object.properties.find((entry) => entry.name?.getText() === key);
  if (property === undefined) return undefined;
  if (ts.isShorthandPropertyAssignment(property)) return property.name;
  return ts.isPropertyAssignment(property) ? property.initializer : undefined;
}

/** Each `{ api, option }` of src/, read on every path of calls that reaches it; an unread one is an error. */
function dataOptions(): { named: Named[]; unread: string[] } {
  const named: Named[] = [];
  const unread = new Set<string>();
  for (const source of sources) {
    walk(source, (node) => {
      if (!ts.isObjectLiteralExpression(node)) return;
      const option = propertyOf(node, 'option');
      const api = propertyOf(node, 'api');
      if (option === undefined || api === undefined) return;
      for (const scope of scopesOf(enclosingFunction(node))) {
        const options = valuesOf(option, scope);
        const apis = valuesOf(api, scope);
        for (const found of [...options.unread, ...apis.unread]) unread.add(`${where(found)}: ${found.getText()}`);
        for (const each of apis.values)
          for (const name of options.values) named.push({ at: where(node), api: each, name });
      }
    });
  }
  return { named, unread: [...unread] };
}

/** The option-looking names of each `invalid_options` message (`options.x`, camelCase words), with the `api` of its data. */
function messageOptions(): Named[] {
  const named: Named[] = [];
  for (const source of sources) {
    walk(source, (node) => {
      if (!ts.isNewExpression(node) || node.expression.getText() !== 'McpResolveError') return;
      const [code, message, options] = node.arguments ?? [];
      if (code === undefined || message === undefined || !ts.isStringLiteral(code) || code.text !== 'invalid_options') {
        return;
      }
      const data =
        options !== undefined && ts.isObjectLiteralExpression(options) ? propertyOf(options, 'data') : undefined;
      const api = data !== undefined && ts.isObjectLiteralExpression(data) ? propertyOf(data, 'api') : undefined;
      if (api === undefined) return;
      for (const scope of scopesOf(enclosingFunction(node))) {
        const names = new Set<string>();
        for (const text of textsOf(message, scope)) {
          for (const [path] of text.matchAll(/(?<![.\w])[a-z]\w*(?:\.[a-z]\w*)+/g)) {
            const parts = path.split('.');
            if (parts[0] === 'options') names.add(parts.slice(1).join('.'));
            else if (parts.some((part) => /[a-z][A-Z]/.test(part))) names.add(path);
          }
          for (const [word] of text.matchAll(/(?<![.\w])[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b(?![.(\w])/g)) names.add(word);
        }
        for (const each of valuesOf(api, scope).values)
          for (const name of names) named.push({ at: where(node), api: each, name });
      }
    });
  }
  return named;
}

const { named: fromData, unread } = dataOptions();
const fromMessages = messageOptions();

/** The property paths of every `…Options` interface or type of src/, for a message that names another api's option. */
const everyOption = new Set(
  sources.flatMap((source) =>
    source.statements.flatMap((statement) =>
      (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) &&
      statement.name.text.endsWith('Options')
        ? pathsOf(checker.getTypeAtLocation(statement.name), 2)
        : [],
    ),
  ),
);

/**
 * The names of `named` that are no option of their api. A message may also name a member of an
 * option (`instanceId` of `sessionFleet.instanceId`) or another api's option (`requestState.replayStore`).
 */
function unknown(named: readonly Named[], inMessage: boolean): string[] {
  const known = (api: string, name: string): boolean => {
    const options = optionsOf(api);
    if (options?.has(name) === true) return true;
    if (!inMessage) return false;
    return everyOption.has(name) || [...(options ?? [])].some((path) => path.endsWith(`.${name}`));
  };
  return named
    .filter(({ api, name }) => !NOT_OPTIONS.has(name) && !known(api, name))
    .map(
      ({ at, api, name }) =>
        `${at}: ${api} has no option ${name}${optionsOf(api) === undefined ? ' (no such api)' : ''}`,
    );
}

describe('the options errors name', () => {
  it('are read from every invalid_options error', () => {
    expect(unread, 'pass the option name as a string (or a parameter every caller gives one)').toEqual([]);
    expect(fromData.length).toBeGreaterThan(40);
    expect(fromData).toContainEqual(expect.objectContaining({ api: 'new McpResolveServer()', name: 'tasks.ttlMs' }));
    expect(fromData).toContainEqual(expect.objectContaining({ api: 'serveHttp()', name: 'headersTimeoutMs' }));
    expect(fromMessages).toContainEqual(expect.objectContaining({ api: 'createSealer()', name: 'replayStore' }));
    expect(optionsOf('new McpResolveServer()')).toContain('requestState.replayStore');
    expect(everyOption).toContain('requestState.replayStore');
  });

  it("in their data are options of the error's api", () => {
    expect(unknown(fromData, false)).toEqual([]);
  });

  it("in their messages are options of the error's api", () => {
    expect(unknown(fromMessages, true)).toEqual([]);
  });
});

/** The units an option counting a size or a time ends in (security.md, "What a size counts"). */
const UNIT = /(?:HeldBytes|Bytes|Ms|Seconds)$/;
/** A name that counts a size or a time: it must say its unit (a rate, `…PerInterval`, counts things). */
const MEASURED = /(?:size|timeout|ttl|delay|age|duration|budget|length|interval|bytes|ms|seconds)$/i;

/** A rate: how many things per some time. */
const RATE = /Per[A-Z]\w*$/;

/** Every numeric property of every `…Options` type of src/, as `Type.name (file:line)`. */
function numericOptions(): { readonly name: string; readonly at: string }[] {
  const found: { name: string; at: string }[] = [];
  for (const source of sources) {
    walk(source, (node) => {
      if (!(ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) || !/Options$/.test(node.name.text))
        return;
      for (const property of checker.getPropertiesOfType(checker.getTypeAtLocation(node.name))) {
        const type = checker.getNonNullableType(checker.getTypeOfSymbol(property));
        const declaration = property.declarations?.[0];
        if ((type.flags & ts.TypeFlags.NumberLike) === 0 || declaration === undefined) continue;
        found.push({ name: property.name, at: `${node.name.text}.${property.name} (${where(declaration)})` });
      }
    });
  }
  return found;
}

describe('option names', () => {
  it('end in the unit they count when they count a size or a time', () => {
    const options = numericOptions();
    expect(options.length).toBeGreaterThan(30);
    const unitless = options
      .filter(({ name }) => MEASURED.test(name) && !RATE.test(name) && !UNIT.test(name))
      .map(({ at }) => at);
    expect(unitless, 'name it …Bytes, …HeldBytes, …Ms or …Seconds').toEqual([]);
  });
});
