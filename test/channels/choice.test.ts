/**
 * The one choice of a question's channel: in-band wherever the client shows the question (not a
 * form, a client that shows forms, a form marked `inBandOnly`); else the first of the server's
 * channels, in registered order, that serves the client; else in-band (refused with -32021).
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import type { Channel, ChannelProvider } from '../../src/channels/channel.js';
import { chooseChannels, showsForms } from '../../src/channels/choice.js';
import type { ToolContext } from '../../src/context.js';
import { elicit, elicitUrl, sample } from '../../src/questions/markers.js';
import type { Ask } from '../../src/questions/markers.js';
import { renderQuestion } from '../../src/questions/render.js';

const questionOf = (ask: Ask) => ({ key: 'q', label: 'q', ask, rendered: renderQuestion(ask, 'q') });
const FORM = questionOf(elicit('Refund?', z.object({ amount: z.number() })));
const IN_BAND_ONLY = questionOf(elicit('Refund?', z.object({ amount: z.number() }), { inBandOnly: true }));
const URL_QUESTION = questionOf(elicitUrl('Pay', 'https://pay.example.com/1'));
const SAMPLING = questionOf(sample({ messages: [], maxTokens: 1 }));

/** A provider serving clients `serves` accepts, whose channel is `name`. */
function provider(name: string, serves: (declared: ClientCapabilities | undefined) => boolean) {
  const channel = { way: 'out-of-band', name } as unknown as Channel;
  return { provider: { serves, open: () => channel } satisfies ChannelProvider, channel };
}

const byUrl = provider('url', (declared) => declared?.elicitation?.url !== undefined);
const byLink = provider('link', (declared) => declared?.elicitation === undefined);

function chosen(declared: ClientCapabilities | undefined, providers = [byUrl.provider, byLink.provider]) {
  const ctx = { era: 'modern', clientCapabilities: declared } as unknown as ToolContext;
  const round = { ctx, round: {}, secret: () => 's' };
  return chooseChannels(round, { providers, caller: () => ({ principal: undefined, target: 't', arguments: {} }) });
}

describe('chooseChannels', () => {
  it('keeps in-band every question the client shows', () => {
    const forms: ClientCapabilities[] = [
      { elicitation: { form: {} } },
      { elicitation: {} },
      { elicitation: { form: {}, url: {} } },
    ];
    for (const declared of forms) {
      expect(chosen(declared)(FORM).way).toBe('in-band');
    }
    expect(chosen({})(SAMPLING).way).toBe('in-band');
    expect(chosen({ elicitation: { url: {} } })(URL_QUESTION).way).toBe('in-band');
  });

  it('gives a form question on a client that shows forms to an in-band variant that serves it, and only such', () => {
    const attached = provider('attached', (declared) => declared?.extensions !== undefined);
    const variant = { ...attached.provider, formsToo: true as const };
    const forms: ClientCapabilities = { elicitation: { form: {} }, extensions: { app: {} } };
    expect(chosen(forms, [variant, byLink.provider])(FORM)).toBe(attached.channel);
    expect(chosen({ elicitation: { form: {} } }, [variant])(FORM).way).toBe('in-band');
    // inBandOnly keeps the native form; a non-form question is never decorated.
    expect(chosen(forms, [variant])(IN_BAND_ONLY).way).toBe('in-band');
    expect(chosen(forms, [variant])(SAMPLING).way).toBe('in-band');
    // A provider that is no in-band variant is never asked for a client that shows forms.
    expect(chosen(forms, [attached.provider])(FORM).way).toBe('in-band');
  });

  it('sends a form question for a client without forms to the first channel that serves it', () => {
    expect(chosen({ elicitation: { url: {} } })(FORM)).toBe(byUrl.channel);
    expect(chosen({})(FORM)).toBe(byLink.channel);
    expect(chosen(undefined)(FORM)).toBe(byLink.channel);
    // Registered order is priority: a channel registered first wins where both serve.
    const everyone = provider('first', () => true);
    expect(chosen({ elicitation: { url: {} } }, [everyone.provider, byUrl.provider])(FORM)).toBe(everyone.channel);
  });

  it('keeps an inBandOnly form question, and any question no channel serves, in-band (refused there with -32021)', () => {
    const choose = chosen({ elicitation: { url: {} } });
    expect(choose(IN_BAND_ONLY).way).toBe('in-band');
    expect(() => choose(IN_BAND_ONLY).admit(IN_BAND_ONLY)).toThrow(/Client does not support elicitation \(form mode\)/);
    expect(chosen({ elicitation: { url: {} } }, [byLink.provider])(FORM).way).toBe('in-band');
    expect(chosen({}, [])(FORM).way).toBe('in-band');
  });

  it('reads a bare elicitation capability as forms', () => {
    expect(showsForms({ elicitation: {} })).toBe(true);
    expect(showsForms({ elicitation: { url: {} } })).toBe(false);
    expect(showsForms(undefined)).toBe(false);
  });
});
