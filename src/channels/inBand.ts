/**
 * The in-band channel: the question goes on the wire as it is — an `inputRequests` entry on
 * 2026-07-28 and in a parked task, a push on 2025-11-25 — and the client's response is its answer.
 * Every question a client can show takes it (the capability gate refuses the rest with -32021).
 */
import { assertBackChannel, assertCapability } from '../questions/capabilities.js';
import type { AskingCall, InBandChannel } from './channel.js';

/** The in-band channel of `call` (it needs not know who asks). */
export function inBandChannel(call: Pick<AskingCall, 'ctx'>): InBandChannel {
  const { ctx } = call;
  return {
    way: 'in-band',
    admit(question) {
      if (ctx.era === 'legacy') assertBackChannel(ctx.clientCapabilities, question.label);
      assertCapability(ctx.clientCapabilities, question.rendered, question.label);
    },
    request: async (_question, request) => request,
    answer: async (_question, response) => response,
  };
}
