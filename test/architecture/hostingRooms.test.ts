/**
 * hosting/ is two rooms. hosting/legacy/ is the 2025-11-25 session leg: the sessions an instance
 * holds, their transports and limits, and the fleet that shares them. hosting/ itself is what every
 * host shares (the dual-era handler, the Host/Origin guard, the request body, the server source,
 * client addresses, stdio) and the modern path, which hands 2026-07-28 traffic to the SDK's
 * stateless handler and needs no session.
 *
 * - Only the doors open into legacy/: `dualEraHandler.ts`, which builds the leg, and the option
 *   modules, which name its settings. The modern path and every other shared module never import it.
 * - legacy/ never imports a door back: the rooms import each other in one direction.
 * - Outside hosting/, only the fleet contract (`legacy/sessionFleet.ts`, which the Redis fleet
 *   implements and `mcp-resolve/contracts` tests) and its in-memory implementation
 *   (`legacy/memorySessionHub.ts`, which `mcp-resolve/contracts` exports) are imported from legacy/.
 * - A hosting/ module that only legacy/ modules import is legacy-only, and lives in legacy/.
 * - legacy/ is split by concept, not by line count: at most six modules, a module being a file or a
 *   folder directly under legacy/ (a concept too large for one file of 250 lines is a folder).
 */
import { readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

import { describe, expect, it } from 'vitest';

import { importsOf, modules, SRC } from './srcModules.js';

const HOSTING = join(SRC, 'hosting');
const LEGACY = join(HOSTING, 'legacy');
/** The hosting/ modules that may import legacy/. */
const DOORS = new Set(['dualEraHandler.ts', 'options.ts', 'resolveDualEraHttpOptions.ts']);
/** The legacy/ modules that src/ outside hosting/ may import: the fleet contract, and its in-memory implementation. */
const FLEET_CONTRACT = new Set([join(LEGACY, 'sessionFleet.ts'), join(LEGACY, 'memorySessionHub.ts')]);
/** Most modules (files and folders directly under it) legacy/ is split into. */
const MAX_LEGACY_MODULES = 6;

const graph = new Map(modules(SRC).map((file) => [file, importsOf(file)]));
const inLegacy = (file: string): boolean => file.startsWith(LEGACY + sep);
const inHosting = (file: string): boolean => file.startsWith(HOSTING + sep);
const shared = [...graph.keys()].filter((file) => dirname(file) === HOSTING);
const name = (file: string): string => relative(SRC, file).split(sep).join('/');

describe("hosting's rooms", () => {
  it('has a legacy room with the session leg in it', () => {
    expect(modules(LEGACY).map(name)).toContain('hosting/legacy/leg/legacySessionLeg.ts');
  });

  it('splits legacy/ into at most six modules, one concept each', () => {
    const concepts = readdirSync(LEGACY);
    expect(concepts.length, `group ${concepts.join(', ')} by concept (a folder is one module)`).toBeLessThanOrEqual(
      MAX_LEGACY_MODULES,
    );
  });

  it('lets only the doors of hosting/ import legacy/ (the modern path never does)', () => {
    const importing = shared.filter((file) => (graph.get(file) ?? []).some(inLegacy));
    const intruders = importing.filter((file) => !DOORS.has(relative(HOSTING, file))).map(name);
    expect(intruders, 'serve legacy traffic through the leg dualEraHandler.ts builds').toEqual([]);
  });

  it('keeps legacy/ from importing a door back', () => {
    const back = [...graph].flatMap(([file, targets]) =>
      inLegacy(file)
        ? targets.filter((target) => DOORS.has(relative(HOSTING, target))).map((t) => `${name(file)} -> ${name(t)}`)
        : [],
    );
    expect(back, 'pass what legacy/ needs into createLegacySessionLeg instead').toEqual([]);
  });

  it('shows outside hosting/ only the fleet contract of legacy/', () => {
    const reaching = [...graph].flatMap(([file, targets]) =>
      inHosting(file)
        ? []
        : targets
            .filter((target) => inLegacy(target) && !FLEET_CONTRACT.has(target))
            .map((t) => `${name(file)} -> ${name(t)}`),
    );
    expect(reaching, 'import hosting/ (createDualEraHandler) or the fleet contract instead').toEqual([]);
  });

  it('puts a module only legacy/ imports in legacy/', () => {
    const legacyOnly = shared.filter((file) => {
      const importers = [...graph].filter(([, targets]) => targets.includes(file)).map(([importer]) => importer);
      return importers.length > 0 && importers.every(inLegacy);
    });
    expect(legacyOnly.map(name), 'move each to src/hosting/legacy/').toEqual([]);
  });
});
