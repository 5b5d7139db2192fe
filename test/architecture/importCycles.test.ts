/**
 * src/ has no import cycle: every relative import of every module (`import type` and
 * `export … from` included) is read with the TypeScript compiler, and a cycle fails the test,
 * printed as `a.ts -> b.ts -> a.ts`.
 */
import { relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { importsOf, modules, SRC } from './srcModules.js';

/** Every cycle found by a depth-first walk, each as a path that starts and ends at one module. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (node: string, path: string[]): void => {
    const at = path.indexOf(node);
    if (at >= 0) {
      found.push([...path.slice(at), node]);
      return;
    }
    if (done.has(node)) return;
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  for (const node of graph.keys()) visit(node, []);
  return found;
}

describe('the import graph of src/', () => {
  it('has no cycle', () => {
    const files = modules(SRC);
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    const printed = cycles(graph).map((cycle) => cycle.map((file) => relative(SRC, file)).join(' -> '));
    expect(printed).toEqual([]);
    expect(graph.size).toBeGreaterThan(50);
  });
});

/** The layer a module belongs to: its folder under src/, or the file itself for a module at the top of src/. */
function layerOf(file: string): string {
  const path = relative(SRC, file);
  const slash = path.indexOf('/');
  return slash < 0 ? path : path.slice(0, slash);
}

describe('the folders of src/', () => {
  it('import one another without a cycle (nothing imports back up)', () => {
    const layers = new Map<string, Set<string>>();
    for (const file of modules(SRC)) {
      const from = layerOf(file);
      const targets = layers.get(from) ?? new Set<string>();
      for (const target of importsOf(file).map(layerOf)) if (target !== from) targets.add(target);
      layers.set(from, targets);
    }
    const graph = new Map([...layers].map(([layer, targets]) => [layer, [...targets]]));
    expect(cycles(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
    expect(graph.get('server')).toContain('tasks');
    expect(graph.get('tasks')).not.toContain('server');
  });
});
