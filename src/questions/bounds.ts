/**
 * What a client's answer may make the server hold: an answer is at most `maxAnswerBytes` (checked
 * on arrival, on every era), and what is kept of it (sealed into the next round's `requestState`,
 * or stored on a task) is reduced to what its question's schema holds, so the size of what travels
 * and waits is bounded by the question, not by the client.
 */
import type { ClientCapabilities, InputRequest } from '@modelcontextprotocol/server';

import { ToolError } from '../errors.js';
import { isRecord } from '../ownKeys.js';
import { jsonBytes } from '../state/bytes.js';

/** The largest answer a server accepts by default, in bytes of JSON (64 KiB). */
export const DEFAULT_MAX_ANSWER_BYTES = 65_536;

/** The error for an answer over `maxAnswerBytes`, in words for the client (`where` names the question). */
export function oversizedAnswer(where: string, bytes: number, maxAnswerBytes: number): ToolError {
  return new ToolError(
    `${where}: the answer is too large (${Number.isFinite(bytes) ? `got ${bytes} bytes` : 'nested too deep to measure'}; this server takes at most ${maxAnswerBytes}, its maxAnswerBytes option). Send a shorter answer.`,
  );
}

/** Throws {@link oversizedAnswer} when `response` is larger than `maxAnswerBytes`. */
export function assertAnswerSize(where: string, response: unknown, maxAnswerBytes: number): void {
  if (response === undefined) return;
  const bytes = jsonBytes(response);
  if (bytes > maxAnswerBytes) throw oversizedAnswer(where, bytes, maxAnswerBytes);
}

function pickKeys(record: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name of names) if (Object.hasOwn(record, name)) kept[name] = record[name];
  return kept;
}

/**
 * `response` as it is kept once accepted: the fields its question's schema names, nothing else (a
 * form's `action` and the content fields the form declares; a URL question's `action`; a sampling
 * result's `role`, `content`, `model` and `stopReason`; each root's `uri` and `name`). A response of
 * another shape is returned unchanged (reading it refuses it).
 */
export function reducedAnswer(request: InputRequest, response: unknown): unknown {
  if (!isRecord(response)) return response;
  switch (request.method) {
    case 'elicitation/create': {
      const kept = pickKeys(response, ['action']);
      const { params } = request;
      if (params.mode !== 'url' && 'requestedSchema' in params && isRecord(response.content)) {
        kept.content = pickKeys(response.content, Object.keys(params.requestedSchema.properties));
      }
      return kept;
    }
    case 'sampling/createMessage':
      return pickKeys(response, ['role', 'content', 'model', 'stopReason']);
    case 'roots/list':
      return Array.isArray(response.roots)
        ? { roots: response.roots.map((root: unknown) => (isRecord(root) ? pickKeys(root, ['uri', 'name']) : root)) }
        : response;
  }
}

/**
 * Of the capabilities a client declared, those the questions layer reads (which question kinds it
 * can answer), each as an empty object: what a task keeps of its creating client, whatever size
 * the client declared.
 */
export function questionCapabilities(declared: ClientCapabilities | undefined): ClientCapabilities | undefined {
  if (declared === undefined) return undefined;
  const kept: ClientCapabilities = {};
  const { elicitation, sampling, roots } = declared;
  if (isRecord(elicitation)) {
    kept.elicitation = {
      ...(elicitation.form !== undefined && { form: {} }),
      ...(elicitation.url !== undefined && { url: {} }),
    };
  }
  if (isRecord(sampling)) kept.sampling = sampling.tools !== undefined ? { tools: {} } : {};
  if (roots !== undefined) kept.roots = {};
  return kept;
}
