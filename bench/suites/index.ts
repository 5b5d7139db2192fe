/**
 * The benchmark registry: the runner executes these in order. To add a measurement (such as
 * option J's journal bytes or option H's parked-call memory, sections 4-J and 6 of the issue),
 * write a `Benchmark` in this folder and list it here; sources of per-unit state growth for
 * section 4 are listed in `growth.ts` (`STATE_SOURCES`).
 */
import type { Benchmark } from '../lib/registry.js';
import { overhead } from './overhead.js';
import { growth } from './growth.js';
import { rounds } from './rounds.js';
import { sealing } from './sealing.js';
import { throughput } from './throughput.js';

export const BENCHMARKS: readonly Benchmark[] = [overhead, rounds, sealing, growth, throughput];
