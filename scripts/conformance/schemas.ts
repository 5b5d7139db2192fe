/**
 * Input-schema fixtures: a library tool whose argument is mirrored in a SEP-2243 `Mcp-Param-*`
 * header (the SDK's HTTP entry validates the header against the body before the tool runs), and a
 * tool registered with the SDK's own `registerTool` in `setup()` whose JSON Schema 2020-12 input
 * is listed exactly as written (`$schema`, `$defs`, `$anchor`, composition and conditionals).
 */
import type { JsonSchemaType } from '@modelcontextprotocol/server';
import { fromJsonSchema } from '@modelcontextprotocol/server';
import type { McpResolveServer } from 'mcp-resolve';
import { z } from 'zod';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** The input schema `json-schema-2020-12` expects to find listed unchanged. */
const CONTACT_SCHEMA = {
  $schema: DIALECT,
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} satisfies JsonSchemaType;

/** Registers the input-schema fixtures on `server`. */
export function registerSchemaFixtures(server: McpResolveServer): McpResolveServer {
  return server
    .tool(
      'test_custom_header',
      {
        description: 'Echoes a region that clients also send as the Mcp-Param-Region header (SEP-2243).',
        input: { region: z.string().meta({ 'x-mcp-header': 'Region' }) },
      },
      ({ region }) => `region ${region}`,
    )
    .setup((mcp) => {
      mcp.registerTool(
        'json_schema_2020_12_tool',
        { description: 'Tool with JSON Schema 2020-12 features', inputSchema: fromJsonSchema(CONTACT_SCHEMA) },
        () => ({ content: [{ type: 'text', text: 'ok' }] }),
      );
    });
}
