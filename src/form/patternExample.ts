/**
 * A readable example of what a JSON Schema `pattern` accepts, for the page to say "It must look like
 * T-1234" instead of showing a regular expression. Only simple patterns are read (literals, `\d`,
 * `\w`, `\s`, `.`, classes without negation, groups, alternation, quantifiers); the example is kept
 * only when the pattern itself matches it, so anything not read right gives no example at all.
 */
import { matchesPattern } from './patterns.js';

/** Patterns longer than this get no example. */
const MAX_PATTERN_CHARS = 200;
/** Examples longer than this are not shown. */
const MAX_EXAMPLE_CHARS = 60;

/** One piece of the example: its length, and how to write it (again for each repetition, so `\d{4}` gives `1234`). */
interface Piece {
  readonly size: number;
  write(): string;
}

const fixed = (text: string): Piece => ({ size: text.length, write: () => text });

/** Reads one pattern into the pieces of its example; `undefined` from a step means "cannot read this". */
class Reader {
  private at = 0;
  private digits = 0;

  constructor(private readonly pattern: string) {}

  /** The example of the whole pattern, or undefined. */
  read(): string | undefined {
    const example = this.alternation();
    return this.at === this.pattern.length ? example?.write() : undefined;
  }

  /** Branches separated by `|`: the first one's example (each branch is still read). */
  private alternation(): Piece | undefined {
    const first = this.sequence();
    while (first !== undefined && this.pattern[this.at] === '|') {
      this.at++;
      if (this.sequence() === undefined) return undefined;
    }
    return first;
  }

  private sequence(): Piece | undefined {
    const pieces: Piece[] = [];
    let size = 0;
    while (this.at < this.pattern.length && this.pattern[this.at] !== '|' && this.pattern[this.at] !== ')') {
      const atom = this.atom();
      const times = atom === undefined ? undefined : this.quantifier();
      if (atom === undefined || times === undefined) return undefined;
      size += atom.size * times;
      if (size > MAX_EXAMPLE_CHARS) return undefined;
      for (let count = 0; count < times; count++) pieces.push(atom);
    }
    return { size, write: () => pieces.map((piece) => piece.write()).join('') };
  }

  /** The smallest count a quantifier allows (one for none, at least one for `+`), or undefined. */
  private quantifier(): number | undefined {
    const rest = this.pattern.slice(this.at);
    const braces = /^\{(\d{1,3})(?:,\d{0,3})?\}/.exec(rest);
    let times = 1;
    if (braces !== null) {
      this.at += braces[0].length;
      times = Number(braces[1]);
    } else if (rest[0] === '?' || rest[0] === '*' || rest[0] === '+') {
      this.at++;
      times = rest[0] === '+' ? 1 : 0;
    }
    if (this.pattern[this.at] === '?') this.at++; // lazy: the same count
    return times;
  }

  private readonly digit: Piece = { size: 1, write: () => String(++this.digits % 10) };

  private atom(): Piece | undefined {
    const char = this.pattern[this.at++];
    switch (char) {
      case '^':
      case '$':
        return fixed('');
      case '.':
        return fixed('x');
      case '\\':
        return this.escape();
      case '[':
        return this.characterClass();
      case '(': {
        if (this.pattern[this.at] === '?') {
          if (this.pattern[this.at + 1] !== ':') return undefined;
          this.at += 2;
        }
        const inner = this.alternation();
        if (this.pattern[this.at++] !== ')') return undefined;
        return inner;
      }
      case undefined:
      case '*':
      case '+':
      case '?':
      case '{':
      case '}':
      case ']':
      case ')':
        return undefined;
      default:
        return fixed(char);
    }
  }

  private escape(): Piece | undefined {
    const char = this.pattern[this.at++];
    if (char === 'd') return this.digit;
    if (char === 'w') return fixed('a');
    if (char === 's') return fixed(' ');
    return char !== undefined && /[\\^$.|?*+()[\]{}/-]/.test(char) ? fixed(char) : undefined;
  }

  /** `[...]`: its first member (a range's start; a digit range gives the next digit), never a negated class. */
  private characterClass(): Piece | undefined {
    const close = this.pattern.indexOf(']', this.at);
    if (close <= this.at || this.pattern[this.at] === '^') return undefined;
    const body = this.pattern.slice(this.at, close);
    this.at = close + 1;
    if (body.startsWith('\\d') || body.startsWith('0-9')) return this.digit;
    if (body.startsWith('\\w')) return fixed('a');
    return body.includes('\\') ? undefined : fixed(body[0] ?? '');
  }
}

/** An example string `pattern` accepts, when the pattern is simple enough to read; else `undefined`. */
export function patternExample(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_CHARS) return undefined;
  const example = new Reader(pattern).read();
  return example !== undefined && example !== '' && matchesPattern(pattern, example) ? example : undefined;
}
