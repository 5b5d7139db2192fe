/**
 * Walks every flow of the guided refund desk (`server.ts --guided`: the variant whose SKU is a
 * pick-list and whose bad answers are asked again) through the MCP Inspector's web UI in a real headless Chromium, on
 * stdio and HTTP, on protocol 2026-07-28 (Inspector era `modern`) and 2025-11-25 (era `legacy`),
 * and checks that the forms guide a person (issue 13): Submit is enabled without touching a box,
 * every field has a description under it, the SKU is a pick-list of the order's items, decline and
 * cancel read as sentences, and a mistyped answer can be corrected (the question is asked again).
 *
 * NOT part of `npm test` or CI: it needs the Inspector, playwright-core and Chromium, which are not
 * dependencies of this package. Plain JavaScript so the type check does not need them installed.
 * Setup (once, outside the repo):
 *
 *   apt-get install -y chromium
 *   mkdir -p /tmp/inspector && cd /tmp/inspector && npm init -y \
 *     && npm install @modelcontextprotocol/inspector@2.12.0 playwright-core
 *
 * Usage: INSPECTOR_TOOLS=/tmp/inspector node scripts/inspector-check.js [--only http-modern] [--shots DIR]
 * Prints each check and `inspector-check <transport>-<era>: N passed, M failed`; exits 1 on a failure.
 * Every process it starts (desk server, Inspector, Chromium) is stopped on every exit path.
 */
import { spawn } from 'node:child_process';
import console from 'node:console';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { inspectorEnv } from './lib/inspectorEnv.js';

const { values } = parseArgs({ options: { only: { type: 'string' }, shots: { type: 'string' } } });
const tools = process.env.INSPECTOR_TOOLS;
if (!tools) {
  console.error(
    'inspector-check: set INSPECTOR_TOOLS to the directory holding node_modules/@modelcontextprotocol/inspector and playwright-core (see the header of this file)',
  );
  process.exit(2);
}
const repo = resolve(import.meta.dirname, '..');
const tsx = join(repo, 'node_modules/.bin/tsx');
const deskServer = join(repo, 'examples/stories/refund-desk/server.ts');
const launcher = join(tools, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const { chromium } = await import(pathToFileURL(join(tools, 'node_modules/playwright-core/index.mjs')).href);
const work = mkdtempSync(join(tmpdir(), 'inspector-check-'));
const shots = values.shots ?? join(work, 'shots');
mkdirSync(shots, { recursive: true });

/** Every child started here, stopped (with its process group) on exit. */
const children = [];
function start(command, args, options = {}) {
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  children.push(child);
  return child;
}
function stopAll() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
}
process.once('exit', stopAll);
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));

/** Resolves with the first match of `pattern` in the child's output (stdout or stderr). */
function waitFor(child, pattern, what) {
  return new Promise((done, fail) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`${what} did not start within 60 s:\n${seen}`)), 60_000);
    const read = (chunk) => {
      seen += chunk;
      const match = pattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        done(match[1]);
      }
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    child.once('exit', (code) => fail(new Error(`${what} exited with code ${code}:\n${seen}`)));
  });
}

async function startInspector(name, era, target) {
  const dir = join(work, name);
  mkdirSync(dir);
  const env = await inspectorEnv(dir);
  const child = start(process.execPath, [launcher, '--web', '--protocol-era', era, ...target], { cwd: dir, env });
  return waitFor(child, /(http:\/\/127\.0\.0\.1:\d+\?MCP_INSPECTOR_API_TOKEN=[0-9a-f]+)/, `Inspector (${name})`);
}

const QUESTION =
  'ORD-7002 has several items (enamel-mug, canvas-tote, sticker-pack). Refund the whole order, or one item?';

/** Runs every flow through one Inspector and returns [passed, failed]. */
async function walk(name, url, era) {
  let passed = 0;
  let failed = 0;
  const check = (ok, what, seen) => {
    if (ok) passed++;
    else failed++;
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}${ok || seen === undefined ? '' : `\n       seen: ${seen}`}`);
  };
  const profile = mkdtempSync(join(work, 'profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  const shot = (label) => page.screenshot({ path: join(shots, `${name}-${label}.png`) });
  const dialog = page.getByRole('dialog');
  const oneLine = (text) => text.replace(/\s*\n\s*/g, ' | ');
  const submit = () => dialog.getByRole('button', { name: 'Submit' });

  async function call(order, reason) {
    const close = page.getByRole('button', { name: 'Close results' });
    if (await close.isVisible()) await close.click();
    await page.getByRole('textbox', { name: 'order_id' }).fill(order);
    await page.getByRole('textbox', { name: 'reason' }).fill(reason);
    await page.getByRole('button', { name: 'Execute Tool' }).click();
  }
  /** Waits until either a question or a result shows; returns which. */
  async function next() {
    const result = page.getByRole('button', { name: 'Close results' });
    await dialog.or(result).first().waitFor();
    return (await dialog.isVisible()) ? 'question' : 'result';
  }
  async function result() {
    await page.getByRole('button', { name: 'Close results' }).waitFor();
    const body = await page.locator('body').innerText();
    const from = body.indexOf('Results');
    return oneLine(body.slice(from, body.indexOf('Protocol', from)));
  }
  async function pickSku(label) {
    await dialog.getByRole('checkbox', { name: 'Refund the whole order' }).uncheck();
    await dialog.locator('.mantine-Select-input').click();
    await page.getByRole('option', { name: label }).click();
  }
  /** Checks that every field label in the open form has a description right under it. */
  async function described(labels) {
    const text = await dialog.innerText();
    for (const label of labels) {
      const description = await dialog
        .locator('[class*="-description"]')
        .evaluateAll(
          (nodes, wanted) => nodes.some((node) => node.closest('[class*="-root"]')?.textContent?.includes(wanted)),
          label,
        );
      check(description, `"${label}" has a description under it`, oneLine(text));
    }
  }

  try {
    await page.goto(url);
    await page.locator('.mantine-Switch-track').first().click();
    await page.getByText('Connected', { exact: true }).waitFor();
    const shown = /MCP (\d{4}-\d\d-\d\d)/.exec(await page.locator('body').innerText())?.[1];
    check(shown === era, `connected on ${era}`, shown);
    await page.getByText('Tools', { exact: true }).first().click();
    await page.getByText('refund_order').first().click();

    await call('ORD-7001', 'download corrupted');
    const r1 = await result();
    check(
      r1.includes('"refunded_cents": 1500') && r1.includes('"restocked": false'),
      'ORD-7001: 1500 cents, no question',
      r1,
    );

    await call('ORD-7002', 'arrived broken');
    await dialog.waitFor();
    await shot('scope-form');
    check((await dialog.innerText()).includes(QUESTION), 'the scope question is shown as a sentence');
    check(await submit().isEnabled(), 'scope form: Submit enabled without touching a box');
    await described(['Refund the whole order', 'Item to refund']);
    await dialog.locator('.mantine-Select-input').click();
    const options = await page.getByRole('option').allInnerTexts();
    await shot('sku-list');
    const wanted = ['enamel-mug ($18.00)', 'canvas-tote ($24.00)', 'sticker-pack ($6.00)'];
    check(
      JSON.stringify(options) === JSON.stringify(wanted),
      'the SKU is a pick-list of the order items',
      JSON.stringify(options),
    );
    await page.keyboard.press('Escape');
    await submit().click();
    await dialog.getByText('Return the items to stock').waitFor();
    await shot('restock-form');
    check(await submit().isEnabled(), 'restock form: Submit enabled without touching a box');
    await described(['Return the items to stock']);
    await dialog.getByRole('checkbox', { name: 'Return the items to stock' }).check();
    await submit().click();
    const r2 = await result();
    check(
      r2.includes('"refunded_cents": 4800') && r2.includes('"restocked": true'),
      'ORD-7002 whole order, restock yes: 4800, restocked',
      r2,
    );

    await call('ORD-7002', 'wrong colour');
    await dialog.waitFor();
    await pickSku('canvas-tote ($24.00)');
    await submit().click();
    await dialog.getByText('(canvas-tote)').waitFor();
    await dialog.getByRole('button', { name: 'Decline' }).click();
    const r3 = await result();
    check(
      r3.includes('"refunded_cents": 2400') && r3.includes('"restocked": false'),
      'ORD-7002 canvas-tote picked from the list, restock declined: 2400, not restocked',
      r3,
    );

    // A mistyped answer: the person switches to "Edit as JSON" and types a SKU not on the order.
    await call('ORD-7002', 'lost parcel');
    await dialog.waitFor();
    await dialog.locator('.mantine-Switch-track').click();
    await dialog.locator('.ace_content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('{"full": false, "sku": "mystery-hat"}');
    await submit().click();
    await page.waitForTimeout(1_000);
    const afterTypo = await next();
    await shot('after-typo');
    if (afterTypo === 'question') {
      check(true, 'a mistyped SKU is asked again');
      console.log(`       re-asked: ${oneLine(await dialog.innerText())}`);
      if ((await dialog.locator('.ace_content').count()) > 0) await dialog.locator('.mantine-Switch-track').click();
      await pickSku('canvas-tote ($24.00)');
      await submit().click();
      await dialog.getByText('(canvas-tote)').waitFor();
      await dialog.getByRole('button', { name: 'Decline' }).click();
      const r4 = await result();
      check(r4.includes('"refunded_cents": 2400'), 'the corrected answer completes the refund: 2400', r4);
    } else {
      check(false, 'a mistyped SKU is asked again', await result());
    }

    // Not counted: the author's own check (partial refund, no item picked), shown for the report.
    await call('ORD-7002', 'no item');
    await dialog.waitFor();
    await dialog.getByRole('checkbox', { name: 'Refund the whole order' }).uncheck();
    await submit().click();
    await page.waitForTimeout(1_000);
    const afterNoItem = await next();
    console.log(
      `  info partial refund with no item picked → ${afterNoItem === 'question' ? `asked again: ${oneLine(await dialog.innerText())}` : await result()}`,
    );
    if (afterNoItem === 'question') await dialog.getByRole('button', { name: 'Cancel' }).click();

    await call('ORD-7002', 'changed mind');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Decline' }).click();
    const r5 = await result();
    await shot('declined');
    check(
      r5.includes(
        `Resolver for parameter 'scope' could not resolve: elicitation was decline. "${QUESTION}" was declined, so the call stopped`,
      ),
      'decline reads as a sentence naming the question',
      r5,
    );

    await call('ORD-7002', 'cancel please');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const r5b = await result();
    check(
      r5b.includes(
        `Resolver for parameter 'scope' could not resolve: elicitation was cancel. "${QUESTION}" was cancelled, so the call stopped`,
      ),
      'cancel reads as a sentence naming the question',
      r5b,
    );

    await call('ORD-9999', 'typo');
    const r6 = await result();
    check(r6.includes("unknown order 'ORD-9999'"), 'ORD-9999: unknown order', r6);
  } catch (error) {
    await shot('error').catch(() => undefined);
    check(false, 'the walk finished', String(error).split('\n')[0]);
  } finally {
    await context.close();
  }
  return [passed, failed];
}

let failures = 0;
try {
  const desk = start(tsx, [deskServer, '--guided', '--http', '--port', '0'], { cwd: repo });
  const deskUrl = await waitFor(desk, /listening on (\S+)/, 'refund-desk server');
  const combos = [
    ['http', 'modern', '2026-07-28', ['--transport', 'http', '--server-url', deskUrl]],
    ['http', 'legacy', '2025-11-25', ['--transport', 'http', '--server-url', deskUrl]],
    ['stdio', 'modern', '2026-07-28', ['--cwd', repo, tsx, deskServer, '--guided']],
    ['stdio', 'legacy', '2025-11-25', ['--cwd', repo, tsx, deskServer, '--guided']],
  ];
  for (const [transport, era, revision, target] of combos) {
    const name = `${transport}-${era}`;
    if (values.only && values.only !== name) continue;
    console.log(`${name} (${revision}):`);
    const inspector = await startInspector(name, era, target);
    const [passed, failed] = await walk(name, inspector, revision);
    failures += failed;
    console.log(`inspector-check ${transport} ${revision}: ${passed} passed, ${failed} failed`);
  }
  console.log(`screenshots in ${shots}`);
} finally {
  stopAll();
  if (values.shots === undefined && failures === 0) rmSync(work, { recursive: true, force: true });
}
process.exit(failures > 0 ? 1 : 0);
