/**
 * A line-based terminal (node:readline, no dependency): it works the same on a real terminal, a
 * pseudo-terminal and a pipe.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** Where the form reads lines and writes prompts. */
export interface Terminal {
  /** Writes `prompt` and resolves with the next line typed, or `undefined` at end of input. */
  ask(prompt: string): Promise<string | undefined>;
  /** Writes one line. */
  say(line: string): void;
  /** Stops reading. */
  close(): void;
}

/** A {@link Terminal} on a pair of streams (usually `process.stdin` and `process.stdout`). */
export function openTerminal(input: Readable, output: Writable): Terminal {
  const lines = createInterface({ input, terminal: false });
  const iterator = lines[Symbol.asyncIterator]();
  return {
    async ask(prompt) {
      output.write(prompt);
      const next = await iterator.next();
      return next.done === true ? undefined : String(next.value).trim();
    },
    say(line) {
      output.write(`${line}\n`);
    },
    close() {
      lines.close();
    },
  };
}
