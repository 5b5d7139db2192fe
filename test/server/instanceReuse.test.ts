/**
 * What a McpResolveServer hands HTTP hosting to reuse: its instances may serve request after request
 * until it gets a task tool (whose work outlives its request) or a raw `setup` hook (which may keep
 * state on an instance); every registration is an event its watchers get, reuse already as it is then.
 */
import { describe, expect, it } from 'vitest';

import { McpResolveServer } from 'mcp-resolve';

const plain = () => new McpResolveServer({ name: 'reuse', version: '1' }).tool('hi', {}, () => 'hi');
const greeting = () => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hello' } }] });

describe('McpResolveServer.instanceReuse', () => {
  it('allows reuse for a server with plain tools, prompts and resources', () => {
    const server = plain()
      .prompt('greet', {}, greeting)
      .resource('about', 'about://me', {}, () => ({ contents: [] }));
    expect(server.instanceReuse.allowed).toBe(true);
  });

  it('stops allowing it once the server has a setup hook', () => {
    const server = plain();
    server.setup(() => {});
    expect(server.instanceReuse.allowed).toBe(false);
  });

  it('does not allow it for a server with a task tool', () => {
    const server = plain().tool('later', { task: { support: 'required' } }, () => 'done');
    expect(server.instanceReuse.allowed).toBe(false);
  });

  it('builds instances of the server as it is now', async () => {
    const server = plain();
    const before = server.instanceReuse.create();
    server.tool('added', {}, () => 'added');
    const after = server.instanceReuse.create();
    expect(before).not.toBe(after);
    expect(after.toolInputSchemaJson('added')).toBeDefined();
    await Promise.all([before.close(), after.close()]);
  });

  it('tells its watchers of every registration, reuse as it is then, until they stop watching', () => {
    const server = plain();
    const seen: boolean[] = [];
    const stop = server.instanceReuse.watch(() => seen.push(server.instanceReuse.allowed));
    server.tool('more', {}, () => 'more');
    server.prompt('greet', {}, greeting);
    server.resource('about', 'about://me', {}, () => ({ contents: [] }));
    server.tool('job', { task: { support: 'optional' } }, () => 'done');
    stop();
    server.setup(() => {});
    expect(seen).toEqual([true, true, true, false]);
  });
});
