/**
 * The schemas a declaration gives (a tool's `input` and `output`, a prompt's `args`): a zod raw
 * shape or a Standard Schema with JSON Schema, checked and turned into JSON Schema once, at
 * registration, the same way for tools and prompts.
 */
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { McpResolveError } from '../errors.js';
import { isRecord } from '../ownKeys.js';

/** Which declared schema a registration error names: a tool's `input` or `output`, or a prompt's `args`. */
export interface SchemaSite {
  readonly kind: 'tool' | 'prompt';
  readonly name: string;
  readonly field: 'input' | 'output' | 'args';
}

/** An object schema of named arguments, compiled once: the schema to validate with and its JSON Schema. */
export interface CompiledArguments<TSchema> {
  readonly schema: TSchema;
  /** The schema's JSON Schema (draft 2020-12, input side), without `$schema`. */
  readonly json: Record<string, unknown>;
  /** The JSON Schema's `properties`, when it lists them. */
  readonly properties: Readonly<Record<string, unknown>> | undefined;
  /** The argument names the JSON Schema lists. */
  readonly names: ReadonlySet<string>;
}

/** Whether `value` is a Standard Schema (rather than a zod raw shape). */
export function isStandardSchema(value: unknown): value is StandardSchemaWithJSON {
  return typeof value === 'object' && value !== null && '~standard' in value;
}

function whereOf(site: SchemaSite): string {
  return `${site.kind === 'tool' ? 'Tool' : 'Prompt'} '${site.name}' ${site.field}`;
}

/** Why a Standard Schema has no JSON Schema converter, and what to use instead. */
function whyNoJsonSchema(schema: StandardSchemaWithJSON): string {
  if (schema['~standard'].vendor !== 'zod')
    return 'give a Standard Schema with JSON Schema support, such as zod >= 4.2';
  return '_zod' in schema
    ? 'zod 4 before 4.2 has no Standard JSON Schema: install zod >= 4.2 (npm install zod@^4.2)'
    : 'a zod 3 schema cannot: use zod >= 4.2, or a Standard Schema with JSON Schema support';
}

/** The JSON Schema of `schema` (its `io` side), which must describe an object. */
export function jsonSchemaOf(
  schema: StandardSchemaWithJSON,
  io: 'input' | 'output',
  site: SchemaSite,
): Record<string, unknown> {
  const where = whereOf(site);
  const data = { kind: site.kind, name: site.name, field: site.field };
  const converter = schema['~standard'].jsonSchema;
  if (converter === undefined) {
    throw new McpResolveError(
      'invalid_declaration',
      `${where}: the schema cannot produce a JSON Schema (${whyNoJsonSchema(schema)}).`,
      { data },
    );
  }
  const { $schema: _dialect, ...json } = converter[io]({ target: 'draft-2020-12' });
  if (json.type !== 'object') {
    throw new McpResolveError(
      'invalid_declaration',
      `${where}: the schema must describe an object (got type ${JSON.stringify(json.type)}).`,
      { data },
    );
  }
  return json;
}

/** A raw shape whose every entry is a zod v4 schema; anything else (a zod 3 schema) is refused by name. */
function checkedShape<TShape extends z.ZodRawShape>(site: SchemaSite, shape: TShape): TShape {
  for (const [field, schema] of Object.entries(shape)) {
    const value: unknown = schema;
    if (typeof value !== 'object' || value === null || !('_zod' in value)) {
      throw new McpResolveError(
        'invalid_declaration',
        `${whereOf(site)} '${field}': not a zod v4 schema (a zod 3 schema has no '_zod'). ` +
          `Build it with zod 4 (import { z } from 'zod' with zod >= 4.2, or 'zod/v4').`,
        { data: { kind: site.kind, name: site.name, field: `${site.field}.${field}` } },
      );
    }
  }
  return shape;
}

/**
 * Compiles the model-facing arguments of a tool (`input`) or a prompt (`args`): a zod raw shape
 * becomes `z.object(shape)`, a Standard Schema is kept; either must produce an object's JSON Schema.
 */
export function compileArguments<TSchema extends StandardSchemaWithJSON>(
  site: SchemaSite,
  declared: z.ZodRawShape | TSchema,
): CompiledArguments<TSchema | z.ZodObject> {
  const schema = isStandardSchema(declared) ? declared : z.object(checkedShape(site, declared));
  const json = jsonSchemaOf(schema, 'input', site);
  const properties = isRecord(json.properties) ? json.properties : undefined;
  return { schema, json, properties, names: new Set(properties === undefined ? [] : Object.keys(properties)) };
}
