/**
 * The benchmark registry: the runner executes these in order. To add a measurement, write a
 * `Benchmark` in this folder and list it here; sources of per-unit state growth for section 4
 * (including option J's journaled steps and answers, 4-J) are listed in `growth.ts`
 * (`STATE_SOURCES`); option H's parked-call memory and option J's journal per round are section 6
 * (`held.ts`).
 */
import type { Benchmark } from '../lib/registry.js';
import { overhead } from './overhead.js';
import { fleet } from './fleet.js';
import { growth } from './growth.js';
import { held } from './held.js';
import { hosting } from './hosting.js';
import { rounds } from './rounds.js';
import { sealing } from './sealing.js';
import { reference } from './reference.js';
import { telemetry } from './telemetry.js';
import { throughput } from './throughput.js';

export const BENCHMARKS: readonly Benchmark[] = [
  overhead,
  rounds,
  sealing,
  growth,
  throughput,
  held,
  fleet,
  reference,
  telemetry,
  hosting,
];
