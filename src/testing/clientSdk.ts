/**
 * `@modelcontextprotocol/client`, the optional peer `mcp-resolve/testing` needs, loaded once here
 * (the entry's other modules take its classes from this one), so that importing the entry without
 * it fails with the install line instead of Node's `Cannot find package`.
 */
import type * as ClientSdk from '@modelcontextprotocol/client';
import type * as ClientStdio from '@modelcontextprotocol/client/stdio';

import { loadPeer } from '../peer.js';

const NAME = '@modelcontextprotocol/client';
const API = 'mcp-resolve/testing';

const [sdk, stdio]: [typeof ClientSdk, typeof ClientStdio] = await Promise.all([
  loadPeer(() => import('@modelcontextprotocol/client'), NAME, API),
  loadPeer(() => import('@modelcontextprotocol/client/stdio'), NAME, API),
]);

export { sdk, stdio };
