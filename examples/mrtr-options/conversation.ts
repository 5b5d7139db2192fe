/**
 * Prints a modern (2026-07-28) conversation as it crosses the wire: each `tools/call` leg, each
 * `input_required` answer, each question the human answers, the final result. Used by `basic.ts`
 * and `basic-multiround.ts`; the client is the official SDK client, in process.
 */
import type {
  ElicitRequest,
  ElicitResult,
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/client';
import { Client, InMemoryTransport, isJSONRPCRequest, isJSONRPCResultResponse } from '@modelcontextprotocol/client';

import type { McpResolveServer } from 'mcp-resolve';
import { serveStdio } from 'mcp-resolve/node';

/** One call to make and how the human answers. */
export interface Conversation {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly answer: (params: ElicitRequest['params']) => ElicitResult;
  readonly log?: (line: string) => void;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value)) : {};
}

function describeState(state: unknown): string {
  return typeof state === 'string' ? `requestState: sealed, ${state.length} chars` : 'no requestState';
}

/** A transport decorator that narrates tools/call traffic. */
class Wiretap implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    private readonly log: (line: string) => void,
  ) {
    inner.onmessage = (message, extra) => {
      if (isJSONRPCResultResponse(message)) this.narrateResult(record(message.result));
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  private narrateResult(result: Record<string, unknown>): void {
    if (result.resultType === 'input_required') {
      const keys = Object.keys(record(result.inputRequests)).join(', ');
      this.log(`server → input_required: asks [${keys}], ${describeState(result.requestState)}`);
    } else if (Array.isArray(result.content)) {
      const text = result.content.map((block) => record(block).text).filter((part) => typeof part === 'string');
      this.log(`server → result: ${text.join('\n')}`);
    }
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCRequest(message) && message.method === 'tools/call') {
      const params = record(message.params);
      const answers = Object.keys(record(params.inputResponses));
      const retry =
        answers.length > 0 ? ` + inputResponses [${answers.join(', ')}], ${describeState(params.requestState)}` : '';
      this.log(`client → tools/call ${String(params.name)} ${JSON.stringify(params.arguments)}${retry}`);
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}

/** Runs one call against `server` in process, narrating it, and returns the result's text. */
export async function converse(server: McpResolveServer, conversation: Conversation): Promise<string> {
  const log = conversation.log ?? ((line: string) => console.log(line));
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(server, { transport: serverEnd });
  const client = new Client(
    { name: 'conversation', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    const answer = conversation.answer(request.params);
    log(`human  ← "${request.params.message}" → ${answer.action} ${JSON.stringify(answer.content ?? {})}`);
    return answer;
  });
  try {
    await client.connect(new Wiretap(clientEnd, log));
    const result = await client.callTool({ name: conversation.tool, arguments: conversation.arguments });
    return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  } finally {
    await client.close();
    await served.close();
  }
}
