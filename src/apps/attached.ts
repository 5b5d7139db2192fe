/**
 * SEP-3118 (app-rendered elicitation): where the client renders form questions as apps, the form
 * question goes on the wire as it is, with the question app attached (`_meta.ui.resourceUri`) and
 * the page the server stored the question under (`_meta` {@link ELICITATION_META}) — inside
 * `input_required` on 2026-07-28, on the push on 2025-11-25. The app shows and checks the stored
 * question, so what the host forwards is never read as a question; the answer is the standard
 * `ElicitResult`, read, validated and re-asked exactly as in-band. A client that does not negotiate
 * it, or whose pages are at their bound, gets the plain form.
 */
import type { InputRequest } from '@modelcontextprotocol/server';

import type { AskingCall, ChannelProvider, InBandChannel } from '../channels/channel.js';
import { inBandChannel } from '../channels/inBand.js';
import { ToolError } from '../errors.js';
import type { FormPages } from '../pageStore/pages.js';
import { pageBindingOf } from '../pageStore/pages.js';
import type { Question } from '../questions/render.js';
import type { AttachedQuestion } from './wire.js';
import { ELICITATION_META, rendersFormsAsApps, withApp } from './wire.js';

/** `request` with the question app and its page attached, when it is a form question (anything else unchanged). */
export function withAttachedApp(request: InputRequest, page: string): InputRequest {
  if (request.method !== 'elicitation/create' || request.params.mode === 'url') return request;
  const attached: AttachedQuestion = { page };
  return {
    ...request,
    params: { ...request.params, _meta: { ...withApp(request.params._meta), [ELICITATION_META]: attached } },
  };
}

/**
 * The request of `question` as `call` sends it: with the app attached, on a page bound to the caller,
 * the question and a secret of this call (the same page on every round of the call); the plain
 * request when it is no form question or no page can be opened for the caller now.
 */
async function attachedRequest(
  pages: FormPages,
  call: AskingCall,
  question: Question,
  request: InputRequest,
): Promise<InputRequest> {
  if (request.method !== 'elicitation/create' || request.params.mode === 'url') return request;
  const binding = pageBindingOf(call.caller(), `app-rendered elicitation\n${call.secret()}`, question);
  try {
    const page = await pages.openPage(binding, question, call.ctx.http?.req);
    return withAttachedApp(request, page.pageId);
  } catch (error) {
    if (error instanceof ToolError) return request; // a bound of the page store: the native form still asks
    throw error;
  }
}

/** The in-band variant that attaches the question app for clients that negotiated SEP-3118, over `pages` (the app's store). */
export function attachedAppChannel(pages: FormPages): ChannelProvider {
  return {
    formsToo: true,
    serves: rendersFormsAsApps,
    open(call): InBandChannel {
      const inBand = inBandChannel(call);
      return {
        ...inBand,
        request: (question, request) => attachedRequest(pages, call, question, request),
      };
    },
  };
}
