/**
 * The `unit` project's guard: unit tests run in process. Any attempt to start a child process (a
 * server, redis-server, nginx, Python, tsc, npm) fails the test that made it, even when the test
 * catches the error, and names the fix: the `.int.test.ts` suffix (the `integration` project) or
 * test/package/ (the `package` project).
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

import { afterEach } from 'vitest';

const require = createRequire(import.meta.url);
const childProcess = require('node:child_process') as Record<string, unknown>;
const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
const started: string[] = [];

function refusal(name: string, args: readonly unknown[]): string {
  const command = typeof args[0] === 'string' ? ` '${args[0]}'` : '';
  return (
    `unit tests run in process, but this test called child_process.${name}()${command}. ` +
    'Name the file *.int.test.ts (the integration project), or move it to test/package/ if it checks dist/.'
  );
}

for (const name of STARTERS) {
  childProcess[name] = (...args: unknown[]): never => {
    const message = refusal(name, args);
    started.push(message);
    throw new Error(message);
  };
}
syncBuiltinESMExports();

afterEach(() => {
  const messages = started.splice(0);
  if (messages.length > 0) throw new Error(messages[0]);
});
