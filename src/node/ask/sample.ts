/**
 * A person plays the client's model: a `sampling/createMessage` request is shown at the terminal
 * and the line they type is the reply.
 */
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/client';

import { EndOfInput } from './form.js';
import type { Terminal } from './terminal.js';

/** The `model` a reply typed at the terminal reports. */
export const TERMINAL_MODEL = 'person-at-terminal';

function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((block: { type?: unknown; text?: unknown }) =>
      block.type === 'text' ? String(block.text) : `[${String(block.type)}]`,
    )
    .join(' ');
}

/** Shows a sampling request at `terminal` and returns the typed reply as the model's message. */
export async function sampleInTerminal(
  params: CreateMessageRequest['params'],
  terminal: Terminal,
): Promise<CreateMessageResult> {
  terminal.say('');
  terminal.say('~ The server asks the model (you answer as the model):');
  if (params.systemPrompt !== undefined) terminal.say(`  system: ${params.systemPrompt}`);
  for (const message of params.messages) terminal.say(`  ${message.role}: ${textOf(message.content)}`);
  const reply = await terminal.ask('  reply > ');
  if (reply === undefined) throw new EndOfInput();
  return { role: 'assistant', content: { type: 'text', text: reply }, model: TERMINAL_MODEL, stopReason: 'endTurn' };
}
