/**
 * Reading an answer: the client's response to a question is untrusted input. It must be of the
 * question's kind, carry content when accepted, and match the question's schema before anything
 * uses it.
 */
import type { StandardSchemaV1 } from '@modelcontextprotocol/server';
import { inputResponse, isSpecType } from '@modelcontextprotocol/server';

import { ToolError } from '../errors.js';
import { isRecord } from '../ownKeys.js';
import { QUESTION_KINDS } from './kinds.js';
import type { Ask, AskKind, Elicit, ElicitationResult, ElicitUrl } from './markers.js';
import { missedPatternHint } from '../form/fieldMessages.js';
import { formFields } from '../form/fields.js';
import { patternMisses } from '../form/patterns.js';
import type { Question } from './render.js';

/**
 * An accepted answer that cannot be used: it fails the question's schema, or the author's `check`
 * rejected it. `reason` is what the person is shown when the question is asked again.
 */
export class RejectedAnswer extends ToolError {
  constructor(
    message: string,
    /** The reason, in words for the person answering. */
    readonly reason: string,
  ) {
    super(`${message} ${reason}`);
    this.name = 'RejectedAnswer';
  }
}

/** The names of the fields a validator's issues point at (one that names no path points at none). */
function issueFields(issues: ReadonlyArray<StandardSchemaV1.Issue>): string[] {
  return issues.flatMap((issue) => {
    const first = issue.path?.[0];
    return first === undefined ? [] : [String(typeof first === 'object' ? first.key : first)];
  });
}

/**
 * The person-facing reason an answer fails a schema: the fields to check, by the titles the form
 * shows (the property name where a field has no title), never the validator's own words (they can
 * carry internals such as type names and codes). A field whose `pattern` the answer misses also says
 * what it must look like: the pattern does not reach the client's form (see `missedPatternHint`).
 */
function schemaReason(names: readonly string[], requestedSchema: unknown, content: Record<string, unknown>): string {
  const properties =
    isRecord(requestedSchema) && isRecord(requestedSchema.properties) ? requestedSchema.properties : {};
  const fields = new Map(formFields(requestedSchema).map((field) => [field.name, field]));
  const checks = new Set<string>();
  for (const name of names) {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const title = isRecord(property) && typeof property.title === 'string' ? property.title : undefined;
    const label = title === undefined ? name : `"${title}"`;
    const field = fields.get(name);
    const hint = field === undefined ? undefined : missedPatternHint(field, content[name]);
    checks.add(hint === undefined ? label : `${label} (${hint})`);
  }
  return checks.size === 0
    ? 'The answer does not fit the form.'
    : `The answer does not fit the form: check ${[...checks].join(', ')}.`;
}

/** The wire `requestedSchema` of a rendered form question (`undefined` for any other kind). */
function requestedSchemaOf(question: Question): unknown {
  const { params } = question.rendered.request;
  return params !== undefined && 'requestedSchema' in params ? params.requestedSchema : undefined;
}

/**
 * Turns a raw response into the outcome consumers receive, or throws a {@link ToolError} whose
 * message says what was wrong (never validator internals). `requestedSchema` is the form's wire
 * schema: its titles name the fields in a refusal, and its `pattern`s are matched in linear time
 * before the question's own schema sees the content (see `patterns.ts`).
 */
export async function readAnswer(
  ask: Ask,
  kind: AskKind,
  label: string,
  response: unknown,
  requestedSchema?: unknown,
): Promise<ElicitationResult<unknown>> {
  const view = inputResponse({ answer: response }, 'answer');
  if (view.kind !== QUESTION_KINDS[kind].answerKind) {
    throw new ToolError(
      `Resolver '${label}' got a non-${QUESTION_KINDS[kind].word} response (wrong kind) to its ${QUESTION_KINDS[kind].word} question.`,
    );
  }
  switch (view.kind) {
    case 'sampling':
      if (!isSpecType.CreateMessageResult(response) && !isSpecType.CreateMessageResultWithTools(response)) {
        throw new ToolError(
          `Resolver '${label}': the answer does not match the requested schema (not a sampling result).`,
        );
      }
      return { action: 'accept', value: view.result };
    case 'roots':
      if (!isSpecType.ListRootsResult(response)) {
        throw new ToolError(
          `Resolver '${label}': the answer does not match the requested schema (not a list of roots).`,
        );
      }
      return { action: 'accept', value: view.roots };
    case 'elicit': {
      if (view.action !== 'accept') return { action: view.action };
      // A URL-mode answer carries no content: the work happens on the page.
      if (kind === 'elicitUrl') {
        return { action: 'accept', value: { elicitationId: (ask as ElicitUrl).elicitationId ?? '' } };
      }
      if (view.content === undefined) {
        throw new ToolError(`Resolver '${label}': the answer was accepted with no content.`);
      }
      const { schema, options } = ask as Elicit<unknown>;
      const misses = patternMisses(requestedSchema, view.content);
      const result = misses.length > 0 ? undefined : await schema['~standard'].validate(view.content);
      if (result === undefined || result.issues) {
        throw new RejectedAnswer(
          `Resolver '${label}': the answer does not match the requested schema.`,
          schemaReason(
            result?.issues === undefined ? misses : issueFields(result.issues),
            requestedSchema,
            view.content,
          ),
        );
      }
      const rejected = await options.check?.(result.value);
      if (rejected !== undefined) {
        throw new RejectedAnswer(`Resolver '${label}': the answer was not accepted.`, rejected);
      }
      return { action: 'accept', value: result.value };
    }
  }
}

/**
 * Reads `response` as the answer to `question`. Every answer the layer accepts goes through here,
 * which is where a policy that asks again on a bad answer would hook in.
 */
export function readAnswerTo(question: Question, response: unknown): Promise<ElicitationResult<unknown>> {
  return readAnswer(question.ask, question.rendered.kind, question.label, response, requestedSchemaOf(question));
}
