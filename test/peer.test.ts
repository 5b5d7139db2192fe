/**
 * `loadPeer`: a peer loaded through a literal `import()` (with `.catch(peerMissing)` where another
 * entry reaches it); a missing one rejects with the install line naming the package, any other
 * failure passes through.
 */
import type * as Zod from 'zod';
import { describe, expect, it } from 'vitest';

import { McpResolveError } from '../src/errors.js';
import { loadPeer, peerMissing } from '../src/peer.js';

describe('loadPeer', () => {
  it('loads an installed peer', async () => {
    const zod: typeof Zod = await loadPeer('zod', 'verify()', () => import('zod').catch(peerMissing));
    expect(typeof zod.z.object).toBe('function');
  });

  it('names the package to install when the peer or one of its subpaths is missing', async () => {
    // @ts-expect-error - the package is absent, as an uninstalled peer is
    const absent = () => import('mcp-resolve-absent-peer').catch(peerMissing);
    await expect(loadPeer('mcp-resolve-absent-peer', 'verify()', absent)).rejects.toThrow(
      'verify() needs the peer dependency mcp-resolve-absent-peer: npm install mcp-resolve-absent-peer',
    );
    // @ts-expect-error - the package is absent, as an uninstalled peer is
    const absentSubpath = () => import('@mcp-resolve-absent/peer/sub').catch(peerMissing);
    const missing = await loadPeer('@mcp-resolve-absent/peer/sub', 'signIn()', absentSubpath).catch(
      (error: unknown) => error,
    );
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
