/**
 * The refund desk's questions as app-rendered elicitations (SEP-3118) in the MCP Inspector v2 (the
 * devDependency, 2.12.0), in Chromium, on 2026-07-28 (Inspector era `modern`) and 2025-11-25
 * (`legacy`): the desk is built with `apps` on and served by `serveHttp`; the Inspector declares form
 * elicitation and the Apps extension with `elicitation`, so the desk attaches its question app to
 * each form, and the Inspector renders it in its "Answering through the server-provided MCP App"
 * dialog (and checks what the app returns against the form's schema). A person answers both
 * questions in the app; the Inspector shows the receipt.
 *
 * A script, not an integration test: one Inspector per era takes 55 to 95 s on a loaded two-core
 * machine, over the integration project's budget; the same SEP-3118 flow runs in the integration
 * project with the reference host (test/stories/refund-desk-app-elicitation.int.test.ts).
 *
 * Usage: npx tsx scripts/inspector-apps.ts [--only modern|legacy] [--shots DIR]
 * Prints each check and `inspector-apps <era>: N passed, M failed`; exits 1 on a failure. `--shots`
 * saves `question-app-elicitation.png` (the scope question in the dialog, 2026-07-28) there. Every
 * process it starts (the Inspector, Chromium) and the desk are stopped on every exit path.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { chromium } from 'playwright-core';

import { createRefundDesk } from '../examples/stories/refund-desk/desk.js';
import type { Era } from '../src/context.js';
import { serveHttp } from '../src/node/index.js';
import { startInspector } from './lib/inspector.js';

const { values } = parseArgs({ options: { only: { type: 'string' }, shots: { type: 'string' } } });
const APP = 'ui://mcp-resolve/question';
const SCOPE = 'ORD-7002 has several items (enamel-mug, canvas-tote, sticker-pack). Refund the whole order, or one SKU?';
const RESTOCK = 'The refund includes physical items (enamel-mug, canvas-tote). Return them to stock?';

/** Walks the story through one Inspector on `era`; returns [passed, failed]. */
async function walk(url: string, era: Era): Promise<[number, number]> {
  let passed = 0;
  let failed = 0;
  const check = (ok: boolean, what: string, seen?: string) => {
    if (ok) passed++;
    else failed++;
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}${ok || seen === undefined ? '' : `\n       seen: ${seen}`}`);
  };
  const profile = await mkdtemp(join(tmpdir(), 'inspector-apps-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const tab = context.pages()[0] ?? (await context.newPage());
    // The Inspector, the desk and Chromium share a loaded machine: waits are generous, never pass/fail.
    tab.setDefaultTimeout(60_000);
    await tab.goto(url);
    await tab.locator('.mantine-Switch-track').first().click();
    await tab.getByText('Connected', { exact: true }).waitFor();
    await tab.getByText('Tools', { exact: true }).first().click();
    await tab.getByText('refund_order').first().click();
    await tab.getByRole('textbox', { name: 'order_id' }).fill('ORD-7002');
    await tab.getByRole('textbox', { name: 'reason' }).fill('arrived broken');
    await tab.getByRole('button', { name: 'Execute Tool' }).click();

    const answer = async (question: string, label: string, shot?: string) => {
      // The Inspector's dialog for this question (named by it), holding its sandbox proxy, which holds the app.
      const dialog = tab.locator(
        `[data-testid="app-elicitation"][aria-label$=${JSON.stringify(`${question} — rendered by ${APP}`)}]`,
      );
      await dialog.waitFor();
      check(true, `"${question}" is rendered by ${APP}`);
      const app = dialog.frameLocator('iframe').frameLocator('iframe');
      await app.getByLabel(label).check();
      if (shot !== undefined) await tab.screenshot({ path: shot });
      await app.getByRole('button', { name: 'Send answer' }).click();
    };
    const shot = values.shots !== undefined && era === 'modern';
    await answer(
      SCOPE,
      'Refund the whole order',
      shot ? join(values.shots!, 'question-app-elicitation.png') : undefined,
    );
    await answer(RESTOCK, 'Return the items to stock');

    await tab.getByRole('button', { name: 'Close results' }).waitFor();
    const body = await tab.locator('body').innerText();
    const shown = body.slice(body.indexOf('Results'), body.indexOf('Protocol', body.indexOf('Results')));
    check(
      shown.includes('"refunded_cents": 4800') && shown.includes('"restocked": true'),
      'the Inspector shows the receipt: 4800 cents, restocked',
      shown.replace(/\s*\n\s*/g, ' | '),
    );
  } catch (error) {
    const tab = context.pages()[0];
    const seen = tab === undefined ? '' : (await tab.locator('[role="dialog"]').allInnerTexts()).join(' | ');
    check(false, 'the walk finished', `${String(error).split('\n')[0]}; dialogs: ${seen.replace(/\s*\n\s*/g, ' ')}`);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
  return [passed, failed];
}

let failures = 0;
const desk = await serveHttp(createRefundDesk({ apps: {} }));
try {
  for (const era of ['modern', 'legacy'] as const) {
    if (values.only !== undefined && values.only !== era) continue;
    console.log(`${era}:`);
    const inspector = await startInspector(desk.url, era);
    try {
      const [passed, failed] = await walk(inspector.url, era);
      failures += failed;
      console.log(`inspector-apps ${era}: ${passed} passed, ${failed} failed`);
    } finally {
      await inspector.close();
    }
  }
} finally {
  await desk.close();
}
process.exit(failures > 0 ? 1 : 0);
