/**
 * `npm run app`: writes src/apps/appBundle.ts, the question app's `App` class built by esbuild from
 * the installed `@modelcontextprotocol/ext-apps` (scripts/lib/appBundle.ts). Run it after moving
 * ext-apps, the SDK, zod or esbuild; test/apps/appBundle.test.ts fails until it is run.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { APP_BUNDLE_MODULE, appBundleModule } from './lib/appBundle.js';

const path = join(fileURLToPath(new URL('..', import.meta.url)), APP_BUNDLE_MODULE);
const text = await appBundleModule();
await writeFile(path, text);
console.log(`${APP_BUNDLE_MODULE}: ${Buffer.byteLength(text)} bytes`);
