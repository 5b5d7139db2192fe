/**
 * The one place a question's channel is chosen, from the client's declared capabilities and the
 * question's options, in a fixed priority: in-band for any question that is not a form and a form
 * marked `inBandOnly`; a form on a client that shows forms takes the first in-band variant that
 * serves the client (`formsToo`: an app attached to the form), else in-band; a form on a client
 * without forms takes the first of the server's channels, in their registered order, that serves
 * the client; else in-band, whose capability gate refuses it with -32021 as it always has.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';

import type { Question } from '../questions/render.js';
import type { AskingCall, CallChannels, Channel, ChannelProvider } from './channel.js';
import { inBandChannel } from './inBand.js';

/** Whether a client that declared `declared` shows form questions (a bare `elicitation: {}` predates modes and means forms). */
export function showsForms(declared: ClientCapabilities | undefined): boolean {
  const elicitation = declared?.elicitation;
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}

/** Whether another channel than in-band may carry `question`: a form question not marked `inBandOnly`. */
export function leavesTheWire(question: Question): boolean {
  const { request } = question.rendered;
  if (request.method !== 'elicitation/create' || request.params.mode === 'url') return false;
  return !('options' in question.ask && question.ask.options.inBandOnly === true);
}

/** Picks the channel of each question of one round. */
export type ChannelChoice = (question: Question) => Channel;

/**
 * The channel of each question of a round of the call `round` describes, over the call's channels
 * (`undefined`: the server has none beyond in-band); each channel is opened once per round.
 */
export function chooseChannels(round: Omit<AskingCall, 'caller'>, channels: CallChannels | undefined): ChannelChoice {
  const inBand = inBandChannel(round);
  if (channels === undefined || channels.providers.length === 0) return () => inBand;
  const call: AskingCall = { ...round, caller: () => channels.caller() };
  const opened = new Map<ChannelProvider, Channel>();
  return (question) => {
    const declared = call.ctx.clientCapabilities;
    if (!leavesTheWire(question)) return inBand;
    const forms = showsForms(declared);
    const provider = channels.providers.find(
      (candidate) => (!forms || candidate.formsToo === true) && candidate.serves(declared),
    );
    if (provider === undefined) return inBand;
    let channel = opened.get(provider);
    if (channel === undefined) opened.set(provider, (channel = provider.open(call)));
    return channel;
  };
}
