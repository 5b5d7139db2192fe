/** Issue 23 item 10: a zod 3 schema in a tool's input is refused at registration, naming the field. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';

import type { ToolInput } from 'mcp-resolve';
import { McpResolveServer } from 'mcp-resolve';

function register(input: unknown): () => void {
  return () =>
    new McpResolveServer({ name: 'rooms', version: '1.0.0' }).tool(
      'book_room',
      { input: input as ToolInput },
      () => 'ok',
    );
}

describe('zod 3 in input', () => {
  it('refuses a zod 3 field in a raw shape, naming it', () => {
    expect(register({ room: z3.string() })).toThrow(
      "Tool 'book_room' input 'room': not a zod v4 schema (a zod 3 schema has no '_zod'). " +
        "Build it with zod 4 (import { z } from 'zod' with zod >= 4.2, or 'zod/v4').",
    );
  });

  it('refuses a zod 3 object schema, saying zod 3 cannot produce a JSON Schema', () => {
    expect(register(z3.object({ room: z3.string() }))).toThrow(
      "Tool 'book_room' input: the schema cannot produce a JSON Schema (a zod 3 schema cannot: use zod >= 4.2, or a Standard Schema with JSON Schema support).",
    );
  });

  it('says to install zod >= 4.2 when a zod 4 schema has no JSON Schema converter (zod 4.0 and 4.1)', () => {
    // zod 4.1's shape: a zod 4 object (it has `_zod`) whose Standard Schema lacks `jsonSchema`.
    const standard = z.object({ room: z.string() })['~standard'];
    const zod41 = { _zod: {}, '~standard': { version: 1, vendor: 'zod', validate: standard.validate } };
    expect(register(zod41)).toThrow(
      "Tool 'book_room' input: the schema cannot produce a JSON Schema (zod 4 before 4.2 has no Standard JSON Schema: install zod >= 4.2 (npm install zod@^4.2)).",
    );
  });
});
