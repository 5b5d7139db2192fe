/** The deprecated builder step `.tool(name, declaration).handle(body)`: it still registers the tool like `.tool(name, declaration, body)` and returns the server. */
import { McpResolveError, resolver } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { call, connect, ERAS, newServer, textOf } from '../resolvers/helpers.js';

describe('the builder step', () => {
  it.each(ERAS)('%s: handle() registers the tool, resolvers included, and chains on the server', async (era) => {
    const suffix = resolver({ name: 'suffix' }, () => '!');
    const server = newServer();
    const chained = server
      .tool('shout', { input: { text: z.string() }, resolve: { suffix } })
      .handle(({ text, suffix: s }) => `${text.toUpperCase()}${s}`)
      .tool('whisper', { input: { text: z.string() } }, ({ text }) => text.toLowerCase());
    expect(chained).toBe(server);
    const connection = await connect(server, { era });
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['shout', 'whisper']);
    expect(textOf(await call(connection, 'shout', { text: 'hi' }))).toBe('HI!');
    expect(textOf(await call(connection, 'whisper', { text: 'HI' }))).toBe('hi');
  });

  it('registers nothing until handle(), and refuses a name already registered when handle() runs', () => {
    const server = newServer();
    const step = server.tool('twice', {});
    server.tool('twice', {}, () => 'first');
    expect(() => step.handle(() => 'second')).toThrow(McpResolveError);
    expect(() => step.handle(() => 'second')).toThrow("Tool 'twice' is already registered on this server.");
  });

  it('refuses a body that is not a function, as the one-call form does', () => {
    const step = newServer().tool('broken', {});
    // @ts-expect-error - the body must be a function
    expect(() => step.handle('nope')).toThrow(McpResolveError);
  });
});
