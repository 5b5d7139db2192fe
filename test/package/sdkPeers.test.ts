/**
 * The SDK packages are peer dependencies: the application's one copy of the SDK is the one the
 * library, its Node adapter and the client all load, so `instanceof McpServer` holds for the
 * server `setup()` receives and errors keep their class across the boundary.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { McpServer } from '@modelcontextprotocol/server';
import { McpResolveServer } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SDK = ['@modelcontextprotocol/server', '@modelcontextprotocol/client', '@modelcontextprotocol/node'] as const;

interface Manifest {
  readonly name?: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

function manifestAt(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The real directory of `name` as Node resolves it from `fromDir` (symlinks followed). */
function packageDir(name: string, fromDir: string): string {
  const require = createRequire(join(fromDir, 'package.json'));
  let dir = dirname(realpathSync(require.resolve(name)));
  while (!existsSync(join(dir, 'package.json')) || manifestAt(dir).name !== name) {
    if (dirname(dir) === dir) throw new Error(`no package.json of ${name} above ${fromDir}`);
    dir = dirname(dir);
  }
  return dir;
}

describe('the SDK as peer dependencies', () => {
  const manifest = manifestAt(root);

  it('declares the SDK packages as peers only, and pins the tested versions for development', () => {
    for (const name of SDK) {
      expect(manifest.dependencies ?? {}, name).not.toHaveProperty(name);
      expect(manifest.peerDependencies ?? {}, name).toHaveProperty(name);
      expect(manifest.devDependencies?.[name], name).toBe(manifestAt(packageDir(name, root)).version);
    }
  });

  it("aligns on one SDK line: server and client share one range, and the Node adapter's own peer range agrees", () => {
    const peers = manifest.peerDependencies ?? {};
    expect(peers['@modelcontextprotocol/client']).toBe(peers['@modelcontextprotocol/server']);
    const adapter = manifestAt(packageDir('@modelcontextprotocol/node', root));
    expect(adapter.peerDependencies?.['@modelcontextprotocol/server']).toBe(peers['@modelcontextprotocol/server']);
  });

  it('loads one copy of the server and of the core, whichever package asks for them', () => {
    const server = packageDir('@modelcontextprotocol/server', root);
    expect(packageDir('@modelcontextprotocol/server', packageDir('@modelcontextprotocol/node', root))).toBe(server);
    const core = packageDir('@modelcontextprotocol/core', server);
    expect(packageDir('@modelcontextprotocol/core', packageDir('@modelcontextprotocol/client', root))).toBe(core);
  });

  it("hands setup() an instance of the application's McpServer class", () => {
    const seen: unknown[] = [];
    const server = new McpResolveServer({ name: 'peers', version: '1.0.0' }).setup((mcp) => seen.push(mcp));
    const created = server.createServer();
    expect(seen).toEqual([created]);
    expect(created).toBeInstanceOf(McpServer);
  });
});
