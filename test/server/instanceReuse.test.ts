/**
 * Which factories HTTP hosting may pool: a McpResolveServer's, until it gets a task tool (whose work
 * outlives its request) or a raw `setup` hook (which may keep state on an instance); never a plain
 * SDK factory.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import { McpResolveServer } from 'mcp-resolve';

import { isReusable } from '../../src/server/instanceReuse.js';

const plain = () => new McpResolveServer({ name: 'reuse', version: '1' }).tool('hi', {}, () => 'hi');

describe('isReusable', () => {
  it('holds for a McpResolveServer with plain tools', () => {
    expect(isReusable(plain().createServer)).toBe(true);
  });

  it('stops holding once the server has a setup hook', () => {
    const server = plain();
    server.setup(() => {});
    expect(isReusable(server.createServer)).toBe(false);
  });

  it('does not hold for a server with a task tool', () => {
    const server = plain().tool('later', { task: { support: 'required' } }, () => 'done');
    expect(isReusable(server.createServer)).toBe(false);
  });

  it('never holds for an SDK factory', () => {
    expect(isReusable(() => new McpServer({ name: 'sdk', version: '1' }))).toBe(false);
  });
});
