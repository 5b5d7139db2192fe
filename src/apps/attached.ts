/**
 * SEP-3118 (app-rendered elicitation): where the client renders form questions as apps, the form
 * question goes on the wire as it is, with the question app attached (`_meta.ui.resourceUri`) —
 * inside `input_required` on 2026-07-28, on the push on 2025-11-25 — and the answer is the
 * standard `ElicitResult`, read, validated and re-asked exactly as in-band. A client that does not
 * negotiate it gets the plain form.
 */
import type { InputRequest } from '@modelcontextprotocol/server';

import type { ChannelProvider, InBandChannel } from '../channels/channel.js';
import { inBandChannel } from '../channels/inBand.js';
import { pushQuestion } from '../questions/push.js';
import type { Question } from '../questions/render.js';
import { rendersFormsAsApps, withApp } from './wire.js';

/** `request` with the question app attached, when it is a form question (anything else unchanged). */
export function withAttachedApp(request: InputRequest): InputRequest {
  if (request.method !== 'elicitation/create' || request.params.mode === 'url') return request;
  return { ...request, params: { ...request.params, _meta: withApp(request.params._meta) } };
}

/** The form question `question` with the app attached to its wire request (its digest unchanged: the answer is the same). */
function attachedQuestion(question: Question): Question {
  const { rendered } = question;
  return { ...question, rendered: { ...rendered, request: withAttachedApp(rendered.request) } };
}

/** The in-band variant that attaches the question app for clients that negotiated SEP-3118. */
export function attachedAppChannel(): ChannelProvider {
  return {
    formsToo: true,
    serves: rendersFormsAsApps,
    open(call): InBandChannel {
      const inBand = inBandChannel(call);
      return {
        ...inBand,
        request: async (_question, request) => withAttachedApp(request),
        push: (question) => pushQuestion(call.ctx, attachedQuestion(question), call.legacyTimeoutMs),
      };
    },
  };
}
