/**
 * The two ways a question reaches the client. Modern era: questions are collected into this
 * round's `inputRequests`, and answers come back in the next round's `inputResponses`, consumed
 * only when the sealed progress says that exact question was asked. Legacy era: each question is
 * a real server-to-client request sent mid-call, related to the originating call.
 */
import type { ClientCapabilities, InputRequest } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { ToolContext } from '../context.js';
import { ToolError } from '../errors.js';
import { readAnswer } from './answers.js';
import { assertCapability } from './capabilities.js';
import type { Asker } from './engine.js';
import { Resolution } from './engine.js';
import type { PlanNode, ResolutionPlan } from './graph.js';
import type { Ask, ElicitationResult } from './markers.js';
import type { Progress, RecordedAnswer } from './progress.js';
import type { RenderedQuestion } from './questions.js';
import { renderQuestion } from './questions.js';

/**
 * Asks on a modern round: answers from sealed progress and this round's responses, or a new
 * question. A response is consumed when the sealed progress says that exact question was asked
 * last round; on a request that carries no state at all, a response may also answer a question
 * that depends on no earlier answer (a client answering a first-round question up front).
 */
export class ModernAsker implements Asker {
  /** The questions this round asks, by key. */
  readonly inputRequests: Record<string, InputRequest> = {};
  private readonly answers: Record<string, RecordedAnswer>;
  private readonly asked: Record<string, string> = {};

  constructor(
    private readonly progress: Progress | undefined,
    private readonly responses: Readonly<Record<string, unknown>> | undefined,
    private readonly capabilities: ClientCapabilities | undefined,
  ) {
    this.answers = { ...progress?.answers };
  }

  /** The progress to seal into this round's `requestState`. */
  nextProgress(): Progress {
    return { answers: this.answers, asked: this.asked };
  }

  async ask(node: PlanNode, ask: Ask, dependsOnAnswer: boolean): Promise<ElicitationResult<unknown> | undefined> {
    const question = renderQuestion(ask, node.label);
    const recorded = this.progress?.answers[node.key];
    if (recorded !== undefined) {
      if (recorded.digest === question.digest) {
        const outcome = await readAnswer(ask, question.kind, node.label, recorded.response).catch(() => undefined);
        if (outcome !== undefined) return outcome;
      }
      // Drifted (the question changed) or no longer valid for it: forget it and ask again.
      delete this.answers[node.key];
    }
    const responses = this.responses;
    const expected = this.progress === undefined ? !dependsOnAnswer : this.progress.asked[node.key] === question.digest;
    if (expected && responses !== undefined && node.key in responses) {
      const response = responses[node.key];
      const outcome = await readAnswer(ask, question.kind, node.label, response);
      this.answers[node.key] = { digest: question.digest, response };
      return outcome;
    }
    assertCapability(this.capabilities, question, node.label);
    this.inputRequests[node.key] = question.request;
    this.asked[node.key] = question.digest;
    return undefined;
  }
}

/** A question a legacy pass left waiting, rendered and checked, ready to push. */
interface WaitingQuestion {
  readonly node: PlanNode;
  readonly ask: Ask;
  readonly question: RenderedQuestion;
}

/** Accepts any result: the answer is checked by `readAnswer`, which says what was wrong in our words. */
const ANY_RESULT = z.unknown();

async function push(ctx: ToolContext, question: RenderedQuestion, timeoutMs: number): Promise<unknown> {
  const options = { timeout: timeoutMs, resetTimeoutOnProgress: true };
  try {
    return await ctx.mcpReq.send(question.request, ANY_RESULT, options);
  } catch (error) {
    if (error instanceof ProtocolError) {
      throw new ToolError(`The client failed the ${question.request.method} request: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * Resolves `plan` on a legacy connection: passes run in process; the questions a pass leaves
 * waiting are pushed to the client one by one, in the order they were found, related to the
 * originating call. Every resolver runs once and the body is entered once.
 */
export async function resolveOnLegacy(
  plan: ResolutionPlan,
  args: Readonly<Record<string, unknown>>,
  ctx: ToolContext,
  capabilities: ClientCapabilities | undefined,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const waiting: WaitingQuestion[] = [];
  const asker: Asker = {
    async ask(node, ask) {
      const question = renderQuestion(ask, node.label);
      if (capabilities === undefined) {
        // Only an instance that never saw `initialize` has no capabilities: a stateless legacy leg.
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          `Resolver '${node.label}' needs to ask the client, but this legacy (2025-11-25) connection has no channel for ` +
            'server-to-client requests. Serve legacy HTTP through a sessionful transport (serveHttp does).',
        );
      }
      assertCapability(capabilities, question, node.label);
      waiting.push({ node, ask, question });
      return undefined;
    },
  };
  const resolution = new Resolution(plan, args, ctx, asker);
  for (;;) {
    const pass = await resolution.pass();
    if (pass.kind === 'resolved') return pass.values;
    if (waiting.length === 0) throw new Error('mcp-resolve: a legacy pass is pending with no question to ask.');
    for (const { node, ask, question } of waiting.splice(0)) {
      const response = await push(ctx, question, timeoutMs);
      resolution.settle(node, await readAnswer(ask, question.kind, node.label, response));
    }
  }
}
