/**
 * `npm run profile`: CPU profiles of both hostings of the refund desk (mcp-resolve's `serveHttp`
 * and the SDK's `createMcpHandler`, bench/servers/hosted-desk.ts, library code from the built
 * `dist/`) under 32 clients running the 3-leg call, and a reading of them: where a request's CPU
 * time goes (HTTP, Web Request/Response, the SDK, zod, the library, sealing, GC).
 *
 *   npm run build && npm run profile            # writes bench/results/profile.md and profiles/*.cpuprofile
 *   npm run profile -- --call quiet --seconds 5  # the call that asks nothing; a shorter window
 *
 * Only samples inside the measured window count (not start-up or warm-up).
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { CATEGORIES, readCpuProfile } from './lib/cpuProfile.js';
import type { ProfileReading } from './lib/cpuProfile.js';
import { runLoad } from './lib/load.js';
import { requireSupportedNode } from './lib/machine.js';
import { ROOT, startServer } from './lib/processes.js';
import { anyDeskCall } from './fixtures/anyDeskHttp.js';
import { QUIET_CALL, THREE_LEG_CALL } from './fixtures/deskCalls.js';

const { values } = parseArgs({
  options: {
    call: { type: 'string', default: '3-leg' },
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '32' },
  },
});
requireSupportedNode('profile');
const call = values.call === 'quiet' ? QUIET_CALL : THREE_LEG_CALL;
const windowMs = Number(values.seconds) * 1000;
const clients = Number(values.clients);
if (!existsSync(join(ROOT, 'dist/index.js'))) {
  console.error('profile: dist/ is missing. Run `npm run build` first (the servers load the built package).');
  process.exit(2);
}
const RESULTS = join(ROOT, 'bench/results');
const PROFILES = join(RESULTS, 'profiles');

/** Profiles one hosting: warm-up, then the window; returns the reading and the calls it served. */
async function profile(hosting: 'resolve' | 'sdk'): Promise<{ reading: ProfileReading; calls: number }> {
  const dir = join(PROFILES, hosting);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await startServer('bench/servers/hosted-desk.ts', ['--hosting', hosting, '--port', '0'], {
    nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    builtPackage: true,
  });
  const window = await (async () => {
    try {
      const scenario = anyDeskCall(call);
      await runLoad(server.url, scenario, 8, 5_000);
      const from = Number(process.hrtime.bigint() / 1000n);
      const load = await runLoad(server.url, scenario, clients, windowMs);
      const to = Number(process.hrtime.bigint() / 1000n);
      console.error(`  ${hosting}: ${load.callsPerSecond.toFixed(0)} calls/s, ${load.errors} failed`);
      return { from, to, calls: load.calls };
    } finally {
      await server.stop();
    }
  })();
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`profile: ${hosting} wrote no .cpuprofile in ${dir}`);
  return { reading: readCpuProfile(join(dir, file), window.from, window.to), calls: window.calls };
}

const pct = (part: number, whole: number): string => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : '—');

console.error(`profile: ${clients} clients, ${call.modernLegs}-leg call, ${windowMs / 1000} s window per hosting`);
const ours = await profile('resolve');
const sdk = await profile('sdk');
const requests = (calls: number) => calls * call.modernLegs;
const usPerRequest = (ms: number, calls: number) =>
  requests(calls) === 0 ? '—' : ((ms * 1000) / requests(calls)).toFixed(0);
const lines = [
  `# CPU profiles: serveHttp and the SDK's createMcpHandler`,
  '',
  `${clients} clients, the ${call.modernLegs}-leg call, a ${windowMs / 1000} s window after 5 s of warm-up; written by \`npm run profile\` on ${new Date().toISOString()}. CPU µs per HTTP request is the category's sampled time divided by the requests served in the window.`,
  '',
  '| where the time goes | serveHttp: share | µs/request | createMcpHandler: share | µs/request |',
  '| --- | --- | --- | --- | --- |',
  ...CATEGORIES.map((category) => {
    const a = ours.reading.byCategory.get(category) ?? 0;
    const b = sdk.reading.byCategory.get(category) ?? 0;
    return `| ${category} | ${pct(a, ours.reading.totalMs)} | ${usPerRequest(a, ours.calls)} | ${pct(b, sdk.reading.totalMs)} | ${usPerRequest(b, sdk.calls)} |`;
  }),
  `| **total (busy)** | 100% | ${usPerRequest(ours.reading.totalMs, ours.calls)} | 100% | ${usPerRequest(sdk.reading.totalMs, sdk.calls)} |`,
  '',
  `Requests in the window: serveHttp ${requests(ours.calls)}, createMcpHandler ${requests(sdk.calls)}.`,
  '',
  '## Busiest functions (self time), serveHttp',
  '',
  '| function | ms | share |',
  '| --- | --- | --- |',
  ...ours.reading.topFunctions.map(
    ({ name, ms }) => `| \`${name}\` | ${ms.toFixed(0)} | ${pct(ms, ours.reading.totalMs)} |`,
  ),
  '',
];
const report = lines.join('\n');
await writeFile(join(RESULTS, 'profile.md'), report);
console.log(report);
console.error(`profile: wrote bench/results/profile.md; profiles in bench/results/profiles/`);
