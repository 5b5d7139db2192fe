/**
 * `tasks/update`'s rule for a task waiting on questions: answers under keys that are pending are
 * recorded against their resolver (others are ignored, the extension's rule), and a task with no
 * question left goes back to `working`. An answer of the wrong shape rejects the whole update, and
 * nothing is recorded.
 */
import type { InputRequest } from '@modelcontextprotocol/server';
import { inputResponse, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import { DEFAULT_MAX_ANSWER_BYTES, reducedAnswer } from '../questions/bounds.js';
import { jsonBytes } from '../state/bytes.js';
import { kindOfMethod } from '../questions/kinds.js';
import type { TaskRecord } from './store.js';

/** What a response under `key` is missing to answer `request`, or `undefined` when it has the right shape. */
function shapeProblem(key: string, request: InputRequest, response: unknown): string | undefined {
  const { method } = request;
  const view = inputResponse({ answer: response }, 'answer');
  const expected = kindOfMethod(method);
  // A URL question's accept carries no content: the work happens at its URL.
  const urlMode = request.method === 'elicitation/create' && request.params.mode === 'url';
  if (view.kind !== expected.answerKind)
    return `the response under '${key}' is not ${expected.answerName} (it answers ${method})`;
  if (view.kind === 'elicit' && view.action === 'accept' && view.content === undefined && !urlMode) {
    return `the response under '${key}' accepts the elicitation but has no content`;
  }
  return undefined;
}

/**
 * `current` with `responses` recorded (each reduced to its question's schema), or `undefined` when it
 * waits on none of them. `dropped` are keys whose response the SDK dropped as not a bare result; an
 * answer over `maxAnswerBytes` is a problem. Throws the `-32602` naming every problem.
 */
export function recordAnswers(
  current: TaskRecord,
  responses: Readonly<Record<string, unknown>>,
  dropped: readonly string[],
  maxAnswerBytes: number = DEFAULT_MAX_ANSWER_BYTES,
): TaskRecord | undefined {
  if (current.status !== 'input_required') return undefined;
  const answered = Object.keys(responses).filter((key) => Object.hasOwn(current.pending, key));
  const problems = dropped
    .filter((key) => Object.hasOwn(current.pending, key))
    .map((key) => `the response under '${key}' is not a bare result object`);
  if (answered.length === 0 && problems.length === 0) return undefined;
  problems.push(
    ...answered.flatMap((key) => {
      const question = current.pending[key];
      const bytes = jsonBytes(responses[key]);
      if (bytes > maxAnswerBytes) {
        return [
          `the response under '${key}' is too large (got ${bytes} bytes; this server takes at most ${maxAnswerBytes}, its maxAnswerBytes option)`,
        ];
      }
      const problem = question && shapeProblem(key, question.request, responses[key]);
      return problem === undefined ? [] : [problem];
    }),
  );
  if (problems.length > 0) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `tasks/update: ${problems.join('; ')}. Nothing was recorded; answer each key with the result its inputRequest asks for.`,
    );
  }
  const pending = { ...current.pending };
  const answers = { ...current.answers };
  for (const key of answered) {
    const question = pending[key];
    if (question === undefined) continue;
    // Only what the question's schema holds is kept, for the task's whole TTL.
    answers[question.node] = { digest: question.digest, response: reducedAnswer(question.request, responses[key]) };
    delete pending[key];
  }
  const { statusMessage: _previous, ...rest } = current;
  return Object.keys(pending).length === 0
    ? { ...rest, status: 'working', pending, answers }
    : { ...rest, pending, answers };
}
