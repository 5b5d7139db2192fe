/**
 * Running a task in the background, through the steps of a call (round/toolCall.ts): a pass of its
 * resolvers (parking it on the questions found), then the body, claimed by one run with a
 * compare-and-set (so across every instance sharing the store one run holds it), under a
 * heartbeat, its `journaled()` steps recorded in the task, and how it ended recorded. A task
 * resumed after its process died comes through here again: same answers, same recorded steps.
 */
import { isInputRequiredResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import { type DurableSteps, withRoundServices } from '../context.js';
import { resolvePlan } from '../round/passes.js';
import { refusedInputRequired } from '../round/roundState.js';
import type { RoundContext } from '../round/requestEra.js';
import type { InstanceServices } from '../round/services.js';
import { checkedResult, runBody, toolFailure } from '../round/toolCall.js';
import type { CompiledTool } from '../round/tool.js';
import type { TaskLease } from './lease.js';
import { RunLost } from './lease.js';
import type { TaskRecords } from './records.js';
import type { TaskRecord } from './store.js';
import { TaskStrategy } from './strategy.js';
import { isHandOff } from '../questions/strategy.js';
import type { Caller } from '../channels/channel.js';
import { chooseChannels } from '../channels/choice.js';
import { answeringPerson } from '../channels/requestClient.js';

/** Runs the tasks of one server's tools in this process. */
export class TaskExecution {
  /** Bodies running in this process, so a cancel arriving here can signal them. */
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly tools: ReadonlyMap<string, CompiledTool>,
    private readonly records: TaskRecords,
    private readonly lease: TaskLease,
  ) {}

  /** Signals the body of `taskId` if it runs in this process. */
  cancel(taskId: string): void {
    this.running.get(taskId)?.abort(new Error('The task was cancelled.'));
  }

  /**
   * Runs a `working` task as far as it goes: a pass of its resolvers, then either parks it on the
   * questions found, or claims the body for a new run and runs it.
   */
  async advance(taskId: string, base: RoundContext, services: InstanceServices): Promise<void> {
    try {
      const record = await this.records.store.get(taskId);
      if (record === undefined || record.status !== 'working' || record.bodyStarted) return;
      const tool = this.tools.get(record.call.tool);
      if (tool === undefined) {
        const missing = new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${record.call.tool} not found`);
        await this.records.failWith(taskId, undefined, missing);
        return;
      }
      const capabilities = record.call.clientCapabilities;
      // Refused answers count against the task's principal and tool, as on the call's other channels.
      const person = () => answeringPerson(record.principal, base.ctx.http?.req);
      const counter = { attempts: services.attempts, target: record.call.tool, person };
      const round = { ...base.round, attempts: counter };
      const ctx = withRoundServices({ ...base.ctx, clientCapabilities: capabilities }, round);
      const channels =
        services.channels.length === 0 ? undefined : { providers: services.channels, caller: () => callerOf(record) };
      const call = { ctx, round, secret: () => record.taskId };
      const strategy = new TaskStrategy(
        round,
        record.answers,
        chooseChannels(call, channels),
        record.attempts,
        record.taskId,
      );
      let resolved;
      try {
        resolved = await resolvePlan(tool.plan, record.call.arguments, ctx, round, strategy);
      } catch (error) {
        await this.fail(taskId, undefined, error, tool, services);
        return;
      }
      const unchanged = (current: TaskRecord) =>
        current.revision === record.revision && current.status === 'working' && !current.bodyStarted;
      if (isInputRequiredResult(resolved)) {
        await this.park(taskId, strategy, unchanged);
        return;
      }
      // A question handed to a person ends the task with the hand-off's result.
      if (isHandOff(resolved)) {
        await this.records.complete(taskId, undefined, resolved.result);
        return;
      }
      const owner = crypto.randomUUID();
      const claimed = await this.records.transition(taskId, (current) =>
        unchanged(current) ? { ...current, bodyStarted: true, owner, answers: strategy.answers } : undefined,
      );
      if (claimed === undefined) return;
      await this.execute(claimed, owner, tool, resolved, { ctx, round }, services);
    } catch (error) {
      this.records.report(error);
    }
  }

  /** Parks the task in `input_required` on the questions its last pass found (unless it changed meanwhile). */
  private async park(
    taskId: string,
    strategy: TaskStrategy,
    unchanged: (current: TaskRecord) => boolean,
  ): Promise<void> {
    await this.records.transition(taskId, (current) => {
      if (!unchanged(current)) return undefined;
      const { statusMessage: _previous, ...rest } = current;
      return {
        ...rest,
        status: 'input_required',
        pending: strategy.parked,
        answers: strategy.answers,
        attempts: strategy.attempts,
        ...(strategy.rejected.length > 0 && { statusMessage: strategy.rejected.join(' ') }),
      };
    });
  }

  /**
   * Enters the body of `claimed` (its claim by the run `owner` already written) through the
   * steps of a call (run the body, refuse its own `input_required`, check the result, or record
   * the failure) and records how it ended. The body's signal aborts when the run loses the task
   * (cancelled, or resumed elsewhere after a missed lease); its writes are refused from then on.
   */
  async execute(
    claimed: TaskRecord,
    owner: string,
    tool: CompiledTool,
    resolved: Readonly<Record<string, unknown>>,
    base: RoundContext,
    services: InstanceServices,
  ): Promise<void> {
    const { taskId } = claimed;
    const controller = new AbortController();
    this.running.set(taskId, controller);
    const lost = () => controller.abort(new Error('The task was cancelled, or resumed on another instance.'));
    const stopHeartbeat = this.lease.heartbeat(taskId, owner, lost);
    const steps: DurableSteps = {
      recorded: claimed.steps ?? {},
      record: (key, entry) => this.lease.recordStep(taskId, owner, key, entry),
    };
    const ctx = withRoundServices(
      { ...base.ctx, mcpReq: { ...base.ctx.mcpReq, signal: controller.signal } },
      { ...base.round, durableSteps: steps },
    );
    try {
      const value = await runBody(tool, claimed.call.arguments, resolved, ctx);
      // A task asks through its resolvers only (parked in input_required), never from its body.
      if (isInputRequiredResult(value)) throw refusedInputRequired('tool', { tool: tool.name });
      await this.records.complete(taskId, owner, await checkedResult(tool, value, services));
    } catch (error) {
      // A run that lost the task has nothing to record: the run holding it now will.
      if (error instanceof RunLost) return;
      await this.fail(taskId, owner, error, tool, services).catch((failure: unknown) => this.records.report(failure));
    } finally {
      stopHeartbeat();
      this.running.delete(taskId);
    }
  }

  /**
   * Records that a task ended by throwing: a protocol error makes it `failed`, anything else is the
   * tool's error result. Written only while the run `owner` holds the task (`undefined`: a resolver pass).
   */
  private fail(
    taskId: string,
    owner: string | undefined,
    error: unknown,
    tool: CompiledTool,
    services: InstanceServices,
  ): Promise<void> {
    if (error instanceof ProtocolError) return this.records.failWith(taskId, owner, error);
    return this.records.complete(taskId, owner, toolFailure(error, tool, services));
  }
}

/** Who asked in a task: its creator, its tool and its arguments (what an answer given elsewhere is bound to). */
function callerOf(record: TaskRecord): Caller {
  return { principal: record.principal, target: record.call.tool, arguments: record.call.arguments };
}
