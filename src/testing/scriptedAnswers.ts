/**
 * Scripted answers to the questions a server asks the client (elicitation, sampling, roots), the
 * capabilities they imply, and their registration on a client with counting.
 */

import type {
  Client,
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
  ListRootsResult,
} from '@modelcontextprotocol/client';

import { McpResolveError } from '../errors.js';
import type { ConnectionCounters } from './counters.js';

/** The test's stand-in for the human and the host: one function per kind of server question. */
export interface ScriptedAnswers {
  /** Answers `elicitation/create` (a legacy push or a modern embedded request). */
  elicit?: (params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
  /** Answers `sampling/createMessage`. */
  sample?: (
    params: CreateMessageRequest['params'],
  ) => CreateMessageResult | CreateMessageResultWithTools | Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /** Answers `roots/list`. */
  roots?: () => ListRootsResult | Promise<ListRootsResult>;
}

/** The client capabilities the given answers imply: form elicitation, sampling and roots as present. */
export function capabilitiesFor(answers: ScriptedAnswers): ClientCapabilities {
  return {
    ...(answers.elicit !== undefined && { elicitation: { form: {} } }),
    ...(answers.sample !== undefined && { sampling: {} }),
    ...(answers.roots !== undefined && { roots: {} }),
  };
}

/** Throws when explicit capabilities do not declare what a given answer needs (the SDK refuses the handler). */
export function assertCapabilitiesCover(api: string, capabilities: ClientCapabilities, answers: ScriptedAnswers): void {
  const missing = [
    answers.elicit !== undefined && capabilities.elicitation === undefined && 'elicitation (for elicit)',
    answers.sample !== undefined && capabilities.sampling === undefined && 'sampling (for sample)',
    answers.roots !== undefined && capabilities.roots === undefined && 'roots (for roots)',
  ].filter((entry) => entry !== false);
  if (missing.length > 0) {
    throw new McpResolveError(
      'invalid_options',
      `${api}: capabilities do not declare ${missing.join(', ')}. ` +
        'Add the capability, drop the answer, or omit capabilities to derive them from the answers.',
      { data: { api, option: 'capabilities' } },
    );
  }
}

/** Registers the answers as the client's request handlers, counting each question answered. */
export function installAnswers(client: Client, answers: ScriptedAnswers, counters: ConnectionCounters): void {
  const { elicit, sample, roots } = answers;
  if (elicit !== undefined) {
    client.setRequestHandler('elicitation/create', (request) => {
      counters.countQuestion('elicitation/create');
      return elicit(request.params);
    });
  }
  if (sample !== undefined) {
    client.setRequestHandler('sampling/createMessage', (request) => {
      counters.countQuestion('sampling/createMessage');
      return sample(request.params);
    });
  }
  if (roots !== undefined) {
    client.setRequestHandler('roots/list', () => {
      counters.countQuestion('roots/list');
      return roots();
    });
  }
}
