import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { REQUIREMENTS, installCommand, missingRequirements, plan, searchDirs } from '../../scripts/provision.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A throwaway directory holding executable stand-ins named `names` (a PATH entry). */
function binDir(names: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-resolve-provision-'));
  dirs.push(dir);
  for (const name of names) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

describe('npm test provisioning', () => {
  it('finds nothing missing when every binary is on the path', () => {
    expect(
      missingRequirements([binDir(['redis-server', 'redis-sentinel', 'nginx', 'script', 'chromium', 'openssl'])]),
    ).toEqual([]);
  });

  it('names each binary a PATH hides, with its Debian package', () => {
    const missing = missingRequirements([binDir(['redis-server']), binDir(['script', 'chromium', 'openssl'])]);
    expect(missing.map((requirement) => requirement.binary)).toEqual(['redis-sentinel', 'nginx']);
    expect(installCommand(missing)).toBe('apt-get update && apt-get install -y redis-sentinel nginx');
  });

  it('does not count a file that is not executable', () => {
    const dir = binDir([]);
    writeFileSync(join(dir, 'nginx'), '');
    expect(missingRequirements([dir]).map((requirement) => requirement.binary)).toContain('nginx');
  });

  it('installs everything missing as root with apt-get, saying so in one line', () => {
    const decided = plan(missingRequirements([binDir([])]), true, true);
    expect(decided).toEqual({
      kind: 'install',
      announce:
        'npm test: installing redis-server redis-sentinel nginx bsdutils chromium openssl with apt-get (missing: redis-server, redis-sentinel, nginx, script, chromium, openssl)',
      commands: [
        ['apt-get', 'update', '-qq'],
        [
          'apt-get',
          'install',
          '-y',
          '-qq',
          'redis-server',
          'redis-sentinel',
          'nginx',
          'bsdutils',
          'chromium',
          'openssl',
        ],
      ],
    });
  });

  it('fails at once with the exact command when not root', () => {
    const missing = REQUIREMENTS.filter((requirement) => requirement.binary === 'script');
    expect(plan(missing, false, true)).toEqual({
      kind: 'refuse',
      message:
        'npm test needs script, not installed (not running as root, so it cannot install them). As root, run: apt-get update && apt-get install -y bsdutils',
    });
  });

  it('fails at once without apt-get', () => {
    const decided = plan(
      missingRequirements([binDir(['redis-server', 'redis-sentinel', 'script', 'chromium', 'openssl'])]),
      true,
      false,
    );
    expect(decided).toEqual({
      kind: 'refuse',
      message:
        'npm test needs nginx, not installed (apt-get is not available). As root, run: apt-get update && apt-get install -y nginx',
    });
  });

  it('does nothing when nothing is missing', () => {
    expect(plan([], false, false)).toEqual({ kind: 'ready' });
  });

  it('also looks in the sbin directories a non-root PATH leaves out', () => {
    expect(searchDirs('/a:/usr/sbin')).toEqual(['/a', '/usr/sbin', '/usr/local/sbin', '/sbin']);
  });
});
