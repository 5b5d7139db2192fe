/**
 * `loadPeer`: a peer loaded by name (the specifier out of bundlers' sight) or through a literal
 * `import()`; a missing one rejects with the install line naming the package, any other failure
 * passes through.
 */
import type * as Zod from 'zod';
import { describe, expect, it } from 'vitest';

import { McpResolveError } from '../src/errors.js';
import { loadPeer } from '../src/peer.js';

describe('loadPeer', () => {
  it('loads an installed peer by its name', async () => {
    const zod = await loadPeer<typeof Zod>('zod', 'verify()');
    expect(typeof zod.z.object).toBe('function');
  });

  it('names the package to install when the peer or one of its subpaths is missing', async () => {
    await expect(loadPeer('mcp-resolve-absent-peer', 'verify()')).rejects.toThrow(
      'verify() needs the peer dependency mcp-resolve-absent-peer: npm install mcp-resolve-absent-peer',
    );
    const missing = await loadPeer('@mcp-resolve-absent/peer/sub', 'signIn()').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(McpResolveError);
    expect(missing).toMatchObject({
      code: 'invalid_usage',
      message: 'signIn() needs the peer dependency @mcp-resolve-absent/peer: npm install @mcp-resolve-absent/peer',
      data: { api: 'signIn()' },
    });
  });

  it('passes any other failure of a literal load through', async () => {
    const failure = new Error('the peer threw while loading');
    await expect(loadPeer('zod', 'verify()', () => Promise.reject(failure))).rejects.toBe(failure);
  });
});
