/** The options of `McpResolveServer`, and the task options as the server passes them on (observed). */
import type { ServerContext, ServerOptions } from '@modelcontextprotocol/server';

import type { AnswerAttemptsOptions } from '../state/attemptStore.js';
import type { SealingOptions } from '../state/options.js';
import type { TaskOptions, TaskStatusChange } from '../tasks/records.js';
import type { Telemetry } from '../telemetry/hooks.js';
import type { ErrorHook } from '../round/masking.js';
import type { ChannelOptions } from '../serverChannels.js';

/** Options for `McpResolveServer` (the channels it asks through beyond in-band: {@link ChannelOptions}). */
export interface McpResolveServerOptions extends ChannelOptions {
  /** Instructions advertised to clients. */
  readonly instructions?: string;
  /** How `requestState` is sealed: keys, audience, TTL, codec, replay guard. Sealing is always on. */
  readonly requestState?: SealingOptions;
  /** The principal a request acts for; defaults to one derived from the validated auth info. */
  readonly principal?: (ctx: ServerContext) => string | undefined;
  /** How long a legacy push question may wait for the human, in ms (default 10 minutes). */
  readonly legacyQuestionTimeoutMs?: number;
  /**
   * The largest answer to one question the server accepts, in bytes of JSON, on every era (an
   * `inputResponses` entry, a pushed question's answer, a `tasks/update` answer). A larger answer
   * fails with an error naming the size and this option. @default 65_536
   */
  readonly maxAnswerBytes?: number;
  /**
   * How a question's `attempts` hold across calls and channels: one person (the principal, else
   * the client's address) may have that many answers to one question of one tool refused within
   * `windowMs`, whichever call, era or channel (in-band, answer page, app, task) carried them; then
   * the question is refused, unread, until the window ends. A fleet passes `RedisFleet.attempts` as
   * `store`. @default an in-memory store, 15 minutes
   */
  readonly answerAttempts?: AnswerAttemptsOptions;
  /**
   * The most array elements and object members, counted together at every depth, that one
   * `tools/call`'s `arguments` may hold: the SDK's `maxToolInputElements`, applied to library tools
   * and to tools registered with `registerTool` in `setup()` alike, before anything else reads the
   * arguments. A larger input is the tool's error result, worded as the SDK words it. `Infinity`
   * lifts the bound. @default 10_000
   */
  readonly maxToolInputElements?: number;
  /**
   * The SDK's serving of hand-built `input_required` results (its legacy shim, round cap and
   * per-round timeout). Resolver tools do not use the shim: they ask legacy clients by push.
   */
  readonly inputRequired?: ServerOptions['inputRequired'];
  /**
   * Receives the cause of every failure the client sees masked (an exception other than `ToolError`
   * or the library's own, thrown by a tool body, resolver, prompt or resource read), with the
   * correlation id the client's message carries. Default: one line on stderr.
   */
  readonly onerror?: ErrorHook;
  /**
   * Sends such exceptions' raw messages to the client instead of the masked one. For development
   * only: a message may carry internals (connection strings, hosts). The hook still runs. Default `false`.
   */
  readonly exposeErrorMessages?: boolean;
  /** Task storage, TTL and polling interval for tools declared with `task` (the Tasks extension). */
  readonly tasks?: TaskOptions;
  /**
   * An observer of every call, round, question and sealing: `otel()` from `mcp-resolve/otel` for
   * OpenTelemetry traces and metrics (docs/guides/observability.md). Default: none, at no cost.
   */
  readonly telemetry?: Telemetry;
}

/** The task options with each status change also reported to `telemetry`. */
export function observedTasks(
  tasks: TaskOptions | undefined,
  telemetry: Telemetry | undefined,
): TaskOptions | undefined {
  if (telemetry?.taskStatus === undefined) return tasks;
  const onStatus = tasks?.onStatus;
  return Object.assign({}, tasks, {
    onStatus: (change: TaskStatusChange) => {
      try {
        telemetry.taskStatus?.({ taskId: String(change.params.taskId), status: String(change.params.status) });
      } catch {
        // An observer never changes what a task does.
      }
      onStatus?.(change);
    },
  });
}
