/**
 * `@modelcontextprotocol/client`, the optional peer `mcp-resolve/testing` needs, loaded once here
 * (the entry's other modules take its classes from this one), so that importing the entry without
 * it fails with the install line instead of Node's `Cannot find package`.
 */
import type * as ClientSdk from '@modelcontextprotocol/client';
import type * as ClientStdio from '@modelcontextprotocol/client/stdio';

import { loadPeer } from '../peer.js';

const API = 'mcp-resolve/testing';

const [sdk, stdio]: [typeof ClientSdk, typeof ClientStdio] = await Promise.all([
  loadPeer('@modelcontextprotocol/client', API, () => import('@modelcontextprotocol/client')),
  loadPeer('@modelcontextprotocol/client/stdio', API, () => import('@modelcontextprotocol/client/stdio')),
]);

export { sdk, stdio };
