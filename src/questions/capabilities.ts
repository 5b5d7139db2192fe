/**
 * The capability gate: a question the client never declared it can answer refuses the call with
 * JSON-RPC error -32021 naming the capability and the resolver, on both eras, before anything is
 * sent and before the tool body runs. On a legacy connection the gate also refuses a question that
 * has no channel to travel on.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import { QUESTION_KINDS } from './kinds.js';
import type { RenderedQuestion } from './render.js';

/** The capabilities a client must have declared to be asked `question`. */
export function requiredCapabilities(question: RenderedQuestion): ClientCapabilities {
  switch (question.request.method) {
    case 'elicitation/create':
      return question.request.params.mode === 'url' ? { elicitation: { url: {} } } : { elicitation: { form: {} } };
    case 'sampling/createMessage': {
      const { tools, toolChoice } = question.request.params;
      return tools !== undefined || toolChoice !== undefined ? { sampling: { tools: {} } } : { sampling: {} };
    }
    case 'roots/list':
      return { roots: {} };
  }
}

function covers(declared: ClientCapabilities | undefined, question: RenderedQuestion): boolean {
  switch (question.request.method) {
    case 'elicitation/create': {
      const elicitation = declared?.elicitation;
      if (elicitation === undefined) return false;
      if (question.request.params.mode === 'url') return elicitation.url !== undefined;
      // A bare `elicitation: {}` predates modes and means form support; url-only does not.
      return elicitation.form !== undefined || elicitation.url === undefined;
    }
    case 'sampling/createMessage': {
      if (declared?.sampling === undefined) return false;
      const { tools, toolChoice } = question.request.params;
      return (tools === undefined && toolChoice === undefined) || declared.sampling.tools !== undefined;
    }
    case 'roots/list':
      return declared?.roots !== undefined;
  }
}

/** Throws the -32021 error unless `declared` covers `question`, asked by resolver `label`; `why` is appended to its message. */
export function assertCapability(
  declared: ClientCapabilities | undefined,
  question: RenderedQuestion,
  label: string,
  why?: string,
): void {
  if (covers(declared, question)) return;
  const { request } = question;
  const needed =
    request.method === 'sampling/createMessage' && declared?.sampling !== undefined
      ? 'sampling with tools'
      : QUESTION_KINDS[question.kind].capability;
  throw new MissingRequiredClientCapabilityError(
    { requiredCapabilities: requiredCapabilities(question) },
    `Client does not support ${needed}, which resolver '${label}' needs to ask its question. ` +
      'Declare the capability in the client, or call a tool that does not ask.' +
      (why === undefined ? '' : ` ${why}`),
  );
}

/**
 * Throws a top-level internal error unless a legacy connection can carry a push: only an instance
 * that never saw `initialize` has no declared capabilities, which is the SDK's per-request legacy
 * leg (no session, so no channel for server-to-client requests). Failing here beats a push whose
 * answer never arrives.
 */
export function assertBackChannel(declared: ClientCapabilities | undefined, label: string): void {
  if (declared !== undefined) return;
  throw new ProtocolError(
    ProtocolErrorCode.InternalError,
    `Resolver '${label}' needs to ask the client, but this legacy (2025-11-25) request has no session, so no channel ` +
      'for server-to-client requests. Serve legacy HTTP through a sessionful transport (serveHttp does).',
  );
}
