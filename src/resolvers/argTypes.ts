/**
 * Registration-time check that a resolver's `args` schema can accept the tool's input for that
 * argument, by JSON Schema `type` (the compile-time check covers typed code; this one covers the
 * rest). Where either side names no type (`anyOf` of refs, custom schemas) it cannot tell, and passes.
 */
import type { StandardSchemaV1 } from '@modelcontextprotocol/server';

/** The JSON Schema types a schema admits, or `undefined` when it does not say. */
export function jsonTypes(schema: unknown): ReadonlySet<string> | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const { type, anyOf, oneOf } = schema as { type?: unknown; anyOf?: unknown; oneOf?: unknown };
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type) && type.every((entry) => typeof entry === 'string')) return new Set(type);
  const members = Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : undefined;
  if (members === undefined) return undefined;
  const types = new Set<string>();
  for (const member of members) {
    const inner = jsonTypes(member);
    if (inner === undefined) return undefined;
    for (const entry of inner) types.add(entry);
  }
  return types;
}

/** The JSON Schema of a resolver's argument schema, or `undefined` when it cannot produce one. */
export function argJsonSchema(schema: StandardSchemaV1): unknown {
  const converter = (schema['~standard'] as { jsonSchema?: { input?: (options: object) => unknown } }).jsonSchema;
  try {
    return converter?.input?.({ target: 'draft-2020-12' });
  } catch {
    return undefined;
  }
}

/**
 * The tool-input types the resolver's argument type would refuse (empty when compatible or when
 * either side names no type). `integer` fits a `number` argument.
 */
export function refusedTypes(toolProperty: unknown, argSchema: StandardSchemaV1): string[] {
  const given = jsonTypes(toolProperty);
  const accepted = jsonTypes(argJsonSchema(argSchema));
  if (given === undefined || accepted === undefined) return [];
  return [...given].filter((type) => !accepted.has(type) && !(type === 'integer' && accepted.has('number')));
}
