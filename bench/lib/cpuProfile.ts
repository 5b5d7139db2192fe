/**
 * Reading a V8 `.cpuprofile` (what `node --cpu-prof` writes): the self time of its samples inside a
 * time window, attributed to the parts of a request's path (HTTP, Web Request/Response, the SDK,
 * zod, the library, sealing, GC …). A native frame (no URL) counts toward the nearest caller that
 * has one, so `writev` lands in HTTP writing and a Web Crypto call in sealing.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The parts of a request's path, in report order. */
export const CATEGORIES = [
  'HTTP parsing and writing (node:http, sockets, streams)',
  'Web Request/Response, streams and abort signals',
  'SDK: Node adapter (toNodeHandler)',
  'SDK: dispatch, per-request server, transport',
  'zod (validation, JSON Schema)',
  'mcp-resolve: hosting',
  'mcp-resolve: sealing (state/)',
  'mcp-resolve: resolvers, questions, server',
  'canonicalize',
  'the desk (example code)',
  'crypto (node:crypto, Web Crypto)',
  'garbage collection',
  'other Node internals',
  'V8 and native (program)',
  'other',
] as const;

/** One part of the path. */
export type Category = (typeof CATEGORIES)[number];

/** What one frame is, by its URL and name; `undefined` for a native frame (inherit the caller's). */
function categoryOfFrame(url: string, name: string): Category | undefined {
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(program)') return 'V8 and native (program)';
  if (url === '') return undefined;
  if (url.includes('@modelcontextprotocol/node')) return 'SDK: Node adapter (toNodeHandler)';
  if (url.includes('@modelcontextprotocol/')) return 'SDK: dispatch, per-request server, transport';
  if (url.includes('/node_modules/zod/')) return 'zod (validation, JSON Schema)';
  if (url.includes('/node_modules/canonicalize/')) return 'canonicalize';
  const library = /\/(dist|src)\/([^/]+)\//.exec(url);
  if (library !== null && !url.includes('node_modules')) {
    if (library[2] === 'hosting' || library[2] === 'node') return 'mcp-resolve: hosting';
    if (library[2] === 'state') return 'mcp-resolve: sealing (state/)';
    return 'mcp-resolve: resolvers, questions, server';
  }
  if (/\/(dist|src)\/[^/]+\.[jt]s$/.test(url) && !url.includes('node_modules'))
    return 'mcp-resolve: resolvers, questions, server';
  if (url.includes('/examples/')) return 'the desk (example code)';
  if (url.includes('internal/crypto') || url === 'node:crypto') return 'crypto (node:crypto, Web Crypto)';
  if (/undici|webstreams|abort_controller|event_target|internal\/url|internal\/blob/.test(url))
    return 'Web Request/Response, streams and abort signals';
  if (/_http_|internal\/http|node:net|stream_base|internal\/streams|node:stream/.test(url))
    return 'HTTP parsing and writing (node:http, sockets, streams)';
  if (url.startsWith('node:')) return 'other Node internals';
  return 'other';
}

/** A profile's self time per category (ms), and the busiest functions, between `fromUs` and `toUs`. */
export interface ProfileReading {
  readonly totalMs: number;
  readonly byCategory: ReadonlyMap<Category, number>;
  readonly topFunctions: ReadonlyArray<{ readonly name: string; readonly ms: number }>;
}

/** Reads `file`, counting only samples taken between `fromUs` and `toUs` (the monotonic clock, µs); idle time is left out. */
export function readCpuProfile(file: string, fromUs = 0, toUs = Number.POSITIVE_INFINITY): ProfileReading {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const categoryOf = new Map<number, Category>();
  const resolve = (id: number): Category => {
    const known = categoryOf.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const parent = parentOf.get(id);
    const own = node === undefined ? 'other' : categoryOfFrame(node.callFrame.url, node.callFrame.functionName);
    const category = own ?? (parent === undefined ? 'V8 and native (program)' : resolve(parent));
    categoryOf.set(id, category);
    return category;
  };
  const byCategory = new Map<Category, number>();
  const byFunction = new Map<string, number>();
  let time = profile.startTime;
  let totalMs = 0;
  for (let index = 0; index < profile.samples.length; index++) {
    const delta = profile.timeDeltas[index] ?? 0;
    time += delta;
    const id = profile.samples[index];
    const node = id === undefined ? undefined : byId.get(id);
    if (node === undefined || id === undefined || time < fromUs || time > toUs) continue;
    if (node.callFrame.functionName === '(idle)') continue;
    const ms = delta / 1000;
    totalMs += ms;
    const category = resolve(id);
    byCategory.set(category, (byCategory.get(category) ?? 0) + ms);
    const where = node.callFrame.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/(dist|examples)\//, '$1/');
    const name = `${node.callFrame.functionName || '(anonymous)'} ${where}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
  const topFunctions = [...byFunction.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([name, ms]) => ({ name, ms }));
  return { totalMs, byCategory, topFunctions };
}
