/**
 * The question's form, shared by every channel that shows it (the answer page, the app in the
 * chat): one labelled input per field (a fieldset for choices), each field's hint
 * and error tied to it by `aria-describedby`, an error summary linking to the fields at fault, and
 * accept, decline and cancel buttons. Plain HTML: on the page it works without JavaScript, and
 * the server (not the browser) checks the answer, exactly as it checks one sent in-band.
 */
import type { FormField } from './fields.js';
import { inputName } from './fields.js';
import { escapeHtml } from './escape.js';

/** What the form shows. */
export interface FormView {
  /** The question's message, shown above the fields. */
  readonly message: string;
  readonly fields: readonly FormField[];
  /** Where the form posts (the page's own path); absent: the form is sent by script (the app), not posted. */
  readonly action?: string;
  /** The form token posted back with the answer (the page's; absent in the app). */
  readonly formToken?: string;
  /** The previous submission, shown again when it was refused (absent: the schema's defaults). */
  readonly submitted?: URLSearchParams;
  /** Field name → why its value was refused. */
  readonly fieldErrors?: Readonly<Record<string, string>>;
  /** Why the answer was refused, in words for the person. */
  readonly summary?: string;
}

/** The form's heading (the question's message is shown under it, as text). */
export const FORM_HEADING = 'A question for you';

function valueOf(field: FormField, submitted: URLSearchParams | undefined): string {
  if (submitted !== undefined) return submitted.get(inputName(field)) ?? '';
  const value = field.defaultValue;
  if (field.inputType === 'datetime-local' && typeof value === 'string') return localDateTimeOf(value);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** An RFC 3339 default as a `datetime-local` input shows it: UTC, no offset (empty if it is no date-time). */
function localDateTimeOf(value: string): string {
  const time = Date.parse(value);
  return Number.isNaN(time) ? '' : new Date(time).toISOString().slice(0, 19);
}

/**
 * A JSON Schema `pattern` (found anywhere in the value) as an HTML `pattern` attribute (which must
 * match the whole value). The server checks the answer; the attribute lets the browser tell early.
 */
function htmlPatternOf(pattern: string): string {
  return `[\\s\\S]*(?:${pattern})[\\s\\S]*`;
}

function selectedOf(field: FormField, submitted: URLSearchParams | undefined): Set<string> {
  if (submitted !== undefined) return new Set(submitted.getAll(inputName(field)));
  const value = field.defaultValue;
  if (Array.isArray(value)) return new Set(value.filter((item) => typeof item === 'string'));
  return typeof value === 'string' ? new Set([value]) : new Set();
}

const attr = (name: string, value: string): string => ` ${name}="${escapeHtml(value)}"`;

/** The hint and error paragraphs of field `id`, and the `aria-describedby` attribute naming them. */
function describedBy(field: FormField, id: string, error: string | undefined): { attribute: string; html: string } {
  const ids: string[] = [];
  let html = '';
  if (field.description !== undefined && field.description !== '') {
    ids.push(`${id}-hint`);
    html += `<p class="hint" id="${id}-hint">${escapeHtml(field.description)}</p>`;
  }
  if (error !== undefined) {
    ids.push(`${id}-error`);
    html += `<p class="error" id="${id}-error"${attr('data-field', field.name)}>${escapeHtml(error)}</p>`;
  }
  return { attribute: ids.length === 0 ? '' : attr('aria-describedby', ids.join(' ')), html };
}

function labelText(field: FormField): string {
  return escapeHtml(field.label) + (field.required ? ' <span class="required">(required)</span>' : '');
}

function ariaInvalid(error: string | undefined): string {
  return error === undefined ? '' : ' aria-invalid="true"';
}

/** One choice (`radio` or `checkbox`) of a choice field. */
function choiceInput(type: string, name: string, id: string, value: string, label: string, checked: boolean): string {
  return (
    `<span class="choice"><input type="${type}" id="${id}"${attr('name', name)}${attr('value', value)}` +
    `${checked ? ' checked' : ''}> <label for="${id}">${escapeHtml(label)}</label></span>`
  );
}

function choiceField(field: FormField, id: string, view: FormView, error: string | undefined): string {
  const { attribute, html } = describedBy(field, id, error);
  const selected = selectedOf(field, view.submitted);
  const type = field.kind === 'choices' ? 'checkbox' : 'radio';
  const name = inputName(field);
  const options = field.choices.map((choice, index) =>
    choiceInput(type, name, `${id}-${index}`, choice.value, choice.label, selected.has(choice.value)),
  );
  if (type === 'radio' && !field.required) {
    options.push(choiceInput('radio', name, `${id}-none`, '', 'No answer', selected.size === 0));
  }
  return (
    `<fieldset id="${id}"${attribute}>` + `<legend>${labelText(field)}</legend>${html}${options.join('')}</fieldset>`
  );
}

function booleanField(field: FormField, id: string, view: FormView, error: string | undefined): string {
  const { attribute, html } = describedBy(field, id, error);
  const checked = view.submitted !== undefined ? view.submitted.has(inputName(field)) : field.defaultValue === true;
  return (
    `<div class="group"><span class="choice"><input type="checkbox" id="${id}"${attr('name', inputName(field))} value="on"` +
    `${checked ? ' checked' : ''}${attribute}${ariaInvalid(error)}> <label for="${id}">${labelText(field)}</label></span>` +
    `${html}</div>`
  );
}

function textField(field: FormField, id: string, view: FormView, error: string | undefined): string {
  const { attribute, html } = describedBy(field, id, error);
  const numeric = field.kind === 'number' || field.kind === 'integer';
  const type = numeric ? 'number' : field.inputType;
  const step = numeric ? attr('step', field.kind === 'integer' ? '1' : 'any') : '';
  const limits = Object.entries(field.limits)
    .map(([name, value]) => attr(name, String(value)))
    .join('');
  const pattern = field.pattern === undefined ? '' : attr('pattern', htmlPatternOf(field.pattern));
  const utc = field.inputType === 'datetime-local' ? ' <span class="hint">(UTC)</span>' : '';
  return (
    `<div class="group"><label class="field" for="${id}">${labelText(field)}${utc}</label>${html}` +
    `<input type="${type}" id="${id}"${attr('name', inputName(field))}${attr('value', valueOf(field, view.submitted))}` +
    `${step}${limits}${pattern}${field.required ? ' required aria-required="true"' : ''}${attribute}${ariaInvalid(error)}></div>`
  );
}

function fieldHtml(field: FormField, index: number, view: FormView): string {
  const id = `field-${index}`;
  const error = view.fieldErrors?.[field.name];
  switch (field.kind) {
    case 'choice':
    case 'choices':
      return choiceField(field, id, view, error);
    case 'boolean':
      return booleanField(field, id, view, error);
    case 'text':
    case 'number':
    case 'integer':
      return textField(field, id, view, error);
  }
}

function summaryHtml(view: FormView): string {
  const errors = view.fieldErrors ?? {};
  const links = view.fields.flatMap((field, index) => {
    const error = Object.hasOwn(errors, field.name) ? errors[field.name] : undefined;
    return error === undefined
      ? []
      : [`<li><a href="#field-${index}">${escapeHtml(field.label)}: ${escapeHtml(error)}</a></li>`];
  });
  if (view.summary === undefined && links.length === 0) return '';
  return (
    '<div class="summary" role="alert" aria-labelledby="summary-title">' +
    '<h2 id="summary-title">Please check your answer</h2>' +
    (view.summary === undefined ? '' : `<p>${escapeHtml(view.summary)}</p>`) +
    (links.length === 0 ? '' : `<ul>${links.join('')}</ul>`) +
    '</div>'
  );
}

/** The form of a question, headed and with its message, as the body of a document (HTML). */
export function renderForm(view: FormView): string {
  const body = [
    `<h1>${FORM_HEADING}</h1>`,
    summaryHtml(view),
    `<p class="message">${escapeHtml(view.message)}</p>`,
    view.action === undefined ? '<form novalidate>' : `<form method="post"${attr('action', view.action)} novalidate>`,
    ...(view.formToken === undefined
      ? []
      : [`<input type="hidden" name="form-token"${attr('value', view.formToken)}>`]),
    ...view.fields.map((field, index) => fieldHtml(field, index, view)),
    '<div class="actions">',
    '<button type="submit" name="action" value="accept">Send answer</button>',
    '<button type="submit" name="action" value="decline">Decline</button>',
    '<button type="submit" name="action" value="cancel">Cancel</button>',
    '</div>',
    '</form>',
  ];
  return body.join('\n');
}
