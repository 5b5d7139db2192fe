/**
 * The deck's registry: every option's server by letter, for `run.ts`, `serve.ts` and the tests.
 * The files are the argument; this only names them.
 */
import { weatherServer as optionA } from './option-a-legacy-shim.js';
import { weatherServer as optionB } from './option-b-await-shim.js';
import { weatherServer as optionC } from './option-c-era-branch.js';
import { weatherServer as optionD } from './option-d-dual-handler.js';
import { naiveWeatherServer, weatherServer as optionE } from './option-e-degrade.js';
import { weatherServer as optionF } from './option-f-once.js';
import { weatherServer as optionG } from './option-g-step-builder.js';
import { weatherServer as optionH } from './option-h-suspending.js';
import { weatherServer as optionJ } from './option-j-journal.js';
import type { DeckServer } from './weather.js';

/** An option's letter. */
export type OptionName = 'e' | 'a' | 'b' | 'c' | 'd' | 'f' | 'g' | 'h' | 'j';

/** One option of the deck. */
export interface DeckOption {
  readonly title: string;
  readonly file: string;
  readonly server: DeckServer;
}

/** Every option, in the order the README presents them. */
export const OPTIONS: Readonly<Record<OptionName, DeckOption>> = {
  e: { title: 'E: degrade (modern-native only)', file: 'option-e-degrade.ts', server: optionE },
  a: { title: "A: the SDK's legacy shim", file: 'option-a-legacy-shim.ts', server: optionA },
  b: { title: 'B: await elicit() on exceptions (unsafe)', file: 'option-b-await-shim.ts', server: optionB },
  c: { title: 'C: one handler, an if on the era', file: 'option-c-era-branch.ts', server: optionC },
  d: { title: 'D: two handlers, byEra picks', file: 'option-d-dual-handler.ts', server: optionD },
  f: { title: 'F: modern-native + once()', file: 'option-f-once.ts', server: optionF },
  g: { title: 'G: step builder', file: 'option-g-step-builder.ts', server: optionG },
  h: { title: 'H: suspending, frame held in memory', file: 'option-h-suspending.ts', server: optionH },
  j: { title: 'J: linear, replayed from a sealed journal', file: 'option-j-journal.ts', server: optionJ },
};

/** The naive E (the audit above the guard), for the footgun demonstration. */
export const NAIVE_E: DeckOption = {
  title: 'E, naive: the side effect above the guard',
  file: 'option-e-degrade.ts',
  server: naiveWeatherServer,
};

/** Whether `name` is an option letter. */
export function isOptionName(name: string | undefined): name is OptionName {
  return name !== undefined && Object.hasOwn(OPTIONS, name);
}
