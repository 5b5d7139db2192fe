/**
 * src/apps/appBundle.ts is what `npm run app` writes from the installed packages today: esbuild is
 * run again (an integration test: esbuild is a child process) and its module must equal the one
 * checked in, so moving ext-apps, the SDK, zod or esbuild without running `npm run app` fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { APP_BUNDLE_MODULE, appBundleModule } from '../../scripts/lib/appBundle.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the generated App class', () => {
  it('is current: npm run app would write the module checked in', async () => {
    const checkedIn = readFileSync(join(ROOT, APP_BUNDLE_MODULE), 'utf8');
    expect((await appBundleModule()) === checkedIn, `${APP_BUNDLE_MODULE} is stale: run npm run app`).toBe(true);
  });
});
