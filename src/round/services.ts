/** What a request needs from the SDK server instance that serves it: one object per instance, built by `createServer`. */
import type { RequestId, Server, ServerContext } from '@modelcontextprotocol/server';

import type { ChannelProvider } from '../channels/channel.js';
import type { AnswerAttempts } from '../state/attemptStore.js';
import type { RequestStateSealer } from '../state/sealer.js';
import type { Telemetry } from '../telemetry/hooks.js';
import type { InboundMessages } from '../telemetry/inbound.js';
import type { ErrorMasker } from './masking.js';

/** What a request needs from the server instance that owns its handler (shared by every request it serves). */
export interface InstanceServices {
  readonly server: Server;
  /** The client's id of the request the instance knows as `id` (the modern lane's connection renumbers requests). */
  readonly clientIdOf: (id: RequestId) => RequestId;
  /** Makes the SDK's `notifications/elicitation/complete` sender for an elicitation id, on this instance's connection. */
  readonly completeElicitation: (elicitationId: string) => () => Promise<void>;
  readonly sealer: RequestStateSealer;
  readonly principal: (ctx: ServerContext) => string | undefined;
  readonly legacyQuestionTimeoutMs: number;
  /** The largest answer accepted, in bytes of JSON (`maxAnswerBytes`). */
  readonly maxAnswerBytes: number;
  /** Where refused answers are counted, and for how long (`answerAttempts`). */
  readonly attempts: AnswerAttempts;
  /** The most elements a tool call's arguments may hold (`maxToolInputElements`); `undefined`: no bound. */
  readonly maxToolInputElements: number | undefined;
  /** What the client may read of a failure (see masking.ts). */
  readonly maskError: ErrorMasker;
  /** The server's observer (`telemetry` option), when it has one. */
  readonly telemetry: Telemetry | undefined;
  /** This instance's observer of inbound messages, when the observer takes them (`served`). */
  readonly inbound: InboundMessages | undefined;
  /** The server's channels beyond in-band, in priority order (`serverChannels.ts`): form questions reach clients that show no forms there. */
  readonly channels: readonly ChannelProvider[];
}
