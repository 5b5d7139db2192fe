/**
 * A person answers an elicitation at a terminal. The form is rendered from `requestedSchema`:
 * booleans as y/n, enums (plain or SEP-1330 titled) as numbered choices, multi-selects as a list
 * of numbers, numbers and strings as typed lines; titles, descriptions and defaults are shown and
 * Enter takes the default. Before the fields, one key chooses: `a` answer, `d` decline, `c`
 * cancel. A URL-mode question shows its link and waits until the person is done there.
 *
 * Line-based on purpose (see ./terminal.ts): it can be driven in tests exactly as a person would.
 */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';

import type { Terminal } from './terminal.js';

type Field = Record<string, unknown>;
type Value = string | number | boolean | string[];

/** A flat form's schema: what `elicitation/create` carries, and what {@link fillForm} renders. */
export type FormSchema = Extract<ElicitRequest['params'], { requestedSchema: unknown }>['requestedSchema'];

/** The end of input: the person left (a form reports it as a cancel). */
export class EndOfInput extends Error {}

interface Choice {
  readonly value: string;
  readonly title: string;
}

const CANCEL: ElicitResult = { action: 'cancel' };

/** What a line that is not a valid value reads as: ask the field again. */
const AGAIN = Symbol('again');

/** The choices of an enum property: `enum`, or SEP-1330 `oneOf`/`anyOf` of `{const, title}`. */
function choicesOf(field: Field | undefined): Choice[] | undefined {
  if (field === undefined) return undefined;
  if (Array.isArray(field.enum)) {
    const names = Array.isArray(field.enumNames) ? (field.enumNames as unknown[]) : [];
    return field.enum.map((value, index) => ({
      value: String(value),
      title: typeof names[index] === 'string' ? names[index] : String(value),
    }));
  }
  const options = field.oneOf ?? field.anyOf;
  if (!Array.isArray(options)) return undefined;
  return options.map((option: Field) => ({
    value: String(option.const),
    title: typeof option.title === 'string' ? option.title : String(option.const),
  }));
}

async function required(terminal: Terminal, prompt: string): Promise<string> {
  const line = await terminal.ask(prompt);
  if (line === undefined) throw new EndOfInput();
  return line;
}

/** Asks one field until the person types something valid; `undefined` leaves an optional field out. */
async function askField(
  terminal: Terminal,
  name: string,
  field: Field,
  isRequired: boolean,
): Promise<Value | undefined> {
  const title = typeof field.title === 'string' ? field.title : name;
  const optional = !isRequired && field.default === undefined;
  terminal.say(`  ${title}${optional ? ' (optional, Enter to skip)' : ''}`);
  if (typeof field.description === 'string') terminal.say(`    ${field.description}`);
  const fallback = field.default as Value | undefined;
  const empty = (): Value | undefined | typeof AGAIN =>
    fallback !== undefined ? fallback : isRequired ? AGAIN : undefined;
  const items = field.type === 'array' && typeof field.items === 'object' ? (field.items as Field) : undefined;
  const choices = choicesOf(items ?? field);
  if (choices !== undefined) {
    for (const [index, choice] of choices.entries()) {
      const marked = Array.isArray(fallback) ? fallback.includes(choice.value) : fallback === choice.value;
      terminal.say(`    ${index + 1}) ${choice.title}${marked ? ' (default)' : ''}`);
    }
  }
  for (;;) {
    let value: Value | undefined | typeof AGAIN;
    let problem: string;
    if (field.type === 'boolean') {
      const keys = fallback === true ? '[Y/n]' : fallback === false ? '[y/N]' : '[y/n]';
      const line = (await required(terminal, `  ${keys} > `)).toLowerCase();
      value = line === '' ? empty() : ['y', 'yes'].includes(line) ? true : ['n', 'no'].includes(line) ? false : AGAIN;
      problem = 'type y or n';
    } else if (choices !== undefined) {
      const range = `1-${choices.length}`;
      const line = await required(terminal, items ? `  numbers ${range}, comma-separated > ` : `  choose ${range} > `);
      const picked = line === '' ? [] : line.split(',').map((part) => choices[Number(part.trim()) - 1]?.value);
      if (line === '') value = empty();
      else if (picked.some((choice) => choice === undefined) || (!items && picked.length !== 1)) value = AGAIN;
      else value = items ? (picked as string[]) : picked[0];
      problem = `choose ${items ? 'numbers' : 'a number'} from 1 to ${choices.length}`;
    } else if (field.type === 'number' || field.type === 'integer') {
      const line = await required(terminal, `  ${fallback !== undefined ? `[${String(fallback)}] ` : ''}> `);
      const number = Number(line);
      const fits =
        Number.isFinite(number) &&
        (field.type === 'number' || Number.isInteger(number)) &&
        (typeof field.minimum !== 'number' || number >= field.minimum) &&
        (typeof field.maximum !== 'number' || number <= field.maximum);
      value = line === '' ? empty() : fits ? number : AGAIN;
      problem = `type ${field.type === 'integer' ? 'a whole number' : 'a number'}${typeof field.minimum === 'number' ? ` from ${field.minimum}` : ''}${typeof field.maximum === 'number' ? ` up to ${field.maximum}` : ''}`;
    } else {
      const line = await required(terminal, `  ${fallback !== undefined ? `[${String(fallback)}] ` : ''}> `);
      value = line === '' ? empty() : line;
      problem = 'this field is required';
    }
    if (value !== AGAIN) return value;
    terminal.say(`    ${problem}`);
  }
}

/**
 * Asks every field of a flat `schema` at `terminal` and returns what was typed (optional fields
 * skipped with Enter are left out). Throws when input ends (the person left).
 */
export async function fillForm(schema: FormSchema, terminal: Terminal): Promise<Record<string, Value>> {
  const needed = new Set(schema.required ?? []);
  const content: Record<string, Value> = {};
  for (const [name, field] of Object.entries(schema.properties as Record<string, Field>)) {
    const value = await askField(terminal, name, field, needed.has(name));
    if (value !== undefined) content[name] = value;
  }
  return content;
}

/** Lets a person answer one elicitation at `terminal`. */
export async function answerInTerminal(params: ElicitRequest['params'], terminal: Terminal): Promise<ElicitResult> {
  terminal.say('');
  terminal.say(`? ${params.message}`);
  try {
    if (params.mode === 'url') {
      terminal.say(`  Open ${params.url}`);
      const line = await required(terminal, '  press Enter when done there (d = decline, c = cancel) > ');
      return line === 'd' ? { action: 'decline' } : line === 'c' ? CANCEL : { action: 'accept' };
    }
    for (;;) {
      const key = (await required(terminal, '  a = answer, d = decline, c = cancel [a] > ')).toLowerCase();
      if (key === 'd') return { action: 'decline' };
      if (key === 'c') return CANCEL;
      if (key === '' || key === 'a') break;
      terminal.say('    type a, d or c');
    }
    return { action: 'accept', content: await fillForm(params.requestedSchema, terminal) };
  } catch (error) {
    if (error instanceof EndOfInput) return CANCEL;
    throw error;
  }
}
