/**
 * A form question's fields as the answer page shows them, read from its wire `requestedSchema` (the
 * flat object elicitation carries: strings, numbers, integers, booleans, single and multiple
 * choices), and a browser's form submission turned back into the content an in-band client sends.
 */
import { isRecord, setOwn } from '../ownKeys.js';

/** How a field is entered. */
export type FormFieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';

/** One choice of a `choice` or `choices` field. */
export interface FormChoice {
  readonly value: string;
  readonly label: string;
}

/** One field of the page's form. */
export interface FormField {
  readonly name: string;
  readonly kind: FormFieldKind;
  /** The label: the property's `title`, else its name. */
  readonly label: string;
  readonly description: string | undefined;
  readonly required: boolean;
  /** The schema's `default`, shown pre-filled. */
  readonly defaultValue: unknown;
  readonly choices: readonly FormChoice[];
  /** The `<input type>` of a text field, from its `format` (`email`, `url`, `date`, `datetime-local`, else `text`). */
  readonly inputType: 'text' | 'email' | 'url' | 'date' | 'datetime-local';
  /**
   * Length and range limits, as HTML attributes (`minlength`, `maxlength`, `min`, `max`). An
   * integer's exclusive bound is the next whole number; bounds past `Number.MAX_SAFE_INTEGER` (what
   * zod's `int()` declares) are left out.
   */
  readonly limits: Readonly<Record<string, number>>;
  /** Whether `min` and `max` exclude the bound itself (a number's `exclusiveMinimum`, `exclusiveMaximum`). */
  readonly exclusive: { readonly min: boolean; readonly max: boolean };
  /** The schema's `pattern` (as JSON Schema reads it: found anywhere in the value). */
  readonly pattern: string | undefined;
  /** How many of a multiple choice's options may be checked (`minItems`, `maxItems`). */
  readonly itemCount: { readonly min?: number; readonly max?: number };
}

const INPUT_TYPES: Readonly<Record<string, FormField['inputType']>> = {
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
};

function stringsOf(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

/** The choices of an enum (`enum` with optional `enumNames`) or of a titled `oneOf`/`anyOf`. */
function enumChoicesOf(schema: Record<string, unknown>): FormChoice[] | undefined {
  const values = stringsOf(schema.enum);
  if (values !== undefined) {
    const names = stringsOf(schema.enumNames);
    return values.map((value, index) => ({ value, label: names?.[index] ?? value }));
  }
  const titled = schema.oneOf ?? schema.anyOf;
  if (!Array.isArray(titled)) return undefined;
  return titled.filter(isRecord).map((branch) => ({
    value: String(branch.const),
    label: typeof branch.title === 'string' ? branch.title : String(branch.const),
  }));
}

function kindOf(property: Record<string, unknown>): { kind: FormFieldKind; choices: FormChoice[] } {
  if (property.type === 'array') {
    const items = isRecord(property.items) ? enumChoicesOf(property.items) : undefined;
    return { kind: 'choices', choices: items ?? [] };
  }
  const choices = enumChoicesOf(property);
  if (choices !== undefined) return { kind: 'choice', choices };
  if (property.type === 'boolean' || property.type === 'number' || property.type === 'integer') {
    return { kind: property.type, choices: [] };
  }
  return { kind: 'text', choices: [] };
}

const finite = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < Number.MAX_SAFE_INTEGER;

/** One end of a number's range: the stricter of its inclusive and exclusive bounds (`sign` 1: lower, -1: upper). */
function boundOf(
  inclusive: unknown,
  exclusive: unknown,
  sign: 1 | -1,
  integer: boolean,
): { value: number; exclusive: boolean } | undefined {
  const open = finite(exclusive) ? exclusive : undefined;
  const closed = finite(inclusive) ? inclusive : undefined;
  if (open === undefined) return closed === undefined ? undefined : { value: closed, exclusive: false };
  if (closed !== undefined && closed * sign > open * sign) return { value: closed, exclusive: false };
  if (!integer) return { value: open, exclusive: true };
  return { value: sign === 1 ? Math.floor(open) + 1 : Math.ceil(open) - 1, exclusive: false };
}

/** The field's limits and exclusive ends (see {@link FormField.limits}). */
function limitsOf(property: Record<string, unknown>, kind: FormFieldKind): Pick<FormField, 'limits' | 'exclusive'> {
  const limits: Record<string, number> = {};
  if (finite(property.minLength)) limits.minlength = property.minLength;
  if (finite(property.maxLength)) limits.maxlength = property.maxLength;
  const integer = kind === 'integer';
  const min = boundOf(property.minimum, property.exclusiveMinimum, 1, integer);
  const max = boundOf(property.maximum, property.exclusiveMaximum, -1, integer);
  if (min !== undefined) limits.min = min.value;
  if (max !== undefined) limits.max = max.value;
  return { limits, exclusive: { min: min?.exclusive === true, max: max?.exclusive === true } };
}

/** The fields of a form question's `requestedSchema`, in the order its properties are declared. */
export function formFields(requestedSchema: unknown): FormField[] {
  if (!isRecord(requestedSchema) || !isRecord(requestedSchema.properties)) return [];
  const required = new Set(stringsOf(requestedSchema.required) ?? []);
  return Object.entries(requestedSchema.properties).flatMap(([name, property]) => {
    if (!isRecord(property)) return [];
    const { kind, choices } = kindOf(property);
    const format = typeof property.format === 'string' ? property.format : '';
    return [
      {
        name,
        kind,
        label: typeof property.title === 'string' && property.title !== '' ? property.title : name,
        description: typeof property.description === 'string' ? property.description : undefined,
        required: required.has(name),
        defaultValue: property.default,
        choices,
        inputType: INPUT_TYPES[format] ?? 'text',
        ...limitsOf(property, kind),
        pattern: typeof property.pattern === 'string' ? property.pattern : undefined,
        itemCount: {
          ...(finite(property.minItems) && { min: property.minItems }),
          ...(finite(property.maxItems) && { max: property.maxItems }),
        },
      },
    ];
  });
}

/** What a field's inputs are named in the page's form (so a property named `action` or `csrf` cannot clash). */
export function inputName(field: Pick<FormField, 'name'>): string {
  return `field.${field.name}`;
}

/** A submission read into content, with the fields whose text could not be read (a number that is not one). */
export interface ReadSubmission {
  readonly content: Record<string, unknown>;
  /** Field name → the person-facing reason its text was not read. */
  readonly unreadable: Readonly<Record<string, string>>;
}

/**
 * The content a browser's submission of `fields` stands for: an empty text, number or choice is left
 * out (so a required one fails the schema's `required`), a checkbox is `true` when sent and `false`
 * when not, a multiple choice is the list of its checked values. Inputs the form does not have are
 * ignored.
 */
export function readSubmission(fields: readonly FormField[], form: URLSearchParams): ReadSubmission {
  const content: Record<string, unknown> = {};
  const unreadable: Record<string, string> = {};
  for (const field of fields) {
    const put = (value: unknown): void => setOwn(content, field.name, value);
    const name = inputName(field);
    if (field.kind === 'boolean') {
      put(form.has(name));
      continue;
    }
    if (field.kind === 'choices') {
      put(form.getAll(name));
      continue;
    }
    const text = form.get(name) ?? '';
    if (text === '') continue;
    if (field.kind === 'number' || field.kind === 'integer') {
      const value = Number(text.trim());
      if (text.trim() === '' || !Number.isFinite(value)) unreadable[field.name] = 'Enter a number.';
      else put(value);
      continue;
    }
    put(field.inputType === 'datetime-local' ? dateTimeOf(text) : text);
  }
  return { content, unreadable };
}

/**
 * A date-time field's text as RFC 3339: a browser's `datetime-local` value (`2026-07-28T10:30`, no
 * offset; the page labels the field UTC) gets its seconds and `Z`; any other text is left to the schema.
 */
export function dateTimeOf(text: string): string {
  const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.exec(text);
  if (local === null) return text;
  return `${text}${local[1] === undefined ? ':00' : ''}Z`;
}
