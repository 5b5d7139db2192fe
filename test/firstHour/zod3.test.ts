/** Issue 23 item 10: a zod 3 schema in a tool's input is refused at registration, naming the field. */
import { describe, expect, it } from 'vitest';
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
      "Tool 'book_room' input: the schema cannot produce a JSON Schema (a zod 3 schema cannot: use zod v4, or a Standard Schema with JSON Schema support).",
    );
  });
});
