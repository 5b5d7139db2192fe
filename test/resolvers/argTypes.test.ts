/** Issue 23 item 2: a resolver's `args` types are compared with the tool's input at registration. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import type { AnyResolver } from 'mcp-resolve';
import { McpResolveServer, resolver } from 'mcp-resolve';

function register(input: z.ZodRawShape, resolved: AnyResolver): () => void {
  return () =>
    new McpResolveServer({ name: 'rooms', version: '1.0.0' }).tool(
      'book_room',
      { input, resolve: { room: resolved } as never },
      () => 'ok',
    );
}

describe('resolver argument types at registration', () => {
  it('refuses a number argument for a string input, naming both', () => {
    const room = resolver({ name: 'room', args: { room_id: z.number() } }, ({ room_id }) => room_id);
    expect(register({ room_id: z.string() }, room)).toThrow(
      "Resolver 'room' argument 'room_id' does not accept the tool's input: tool 'book_room' gives string, " +
        "which the resolver's args schema refuses. Give both the same type.",
    );
  });

  it('refuses the null of a nullable input when the argument is not nullable', () => {
    const room = resolver({ name: 'room', args: { room_id: z.string() } }, ({ room_id }) => room_id);
    expect(register({ room_id: z.string().nullable() }, room)).toThrow("gives null, which the resolver's args");
  });

  it.each<[string, z.ZodType, z.ZodType]>([
    ['the same type', z.string(), z.string()],
    ['an integer input for a number argument', z.number().int(), z.number()],
    ['a narrower input (enum of strings)', z.enum(['a', 'b']), z.string()],
    ['a schema that names no type (cannot tell)', z.string(), z.custom<string>()],
  ])('accepts %s', (_label, given, wanted) => {
    const room = resolver({ name: 'room', args: { room_id: wanted } }, ({ room_id }) => room_id);
    expect(register({ room_id: given }, room)).not.toThrow();
  });
});
