/**
 * Tasks under attack: `attempts` enforced across `tasks/update`, what a task keeps of a client that
 * declares 1 MB of capabilities, and the task store with Redis paused (a deadline, masked errors,
 * an abandoned cancel never applied).
 */
import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';

import { TASKS_EXTENSION } from '../../src/tasks/wire.js';
import { connectHttp } from '../../src/testing/index.js';
import { taskOf } from '../../src/client/index.js';
import type { Case, Scope } from './harness.js';
import { outcome, since, sleep } from './harness.js';

const Task = z.looseObject({ status: z.string(), inputRequests: z.record(z.string(), z.unknown()).optional() });
const Ack = z.looseObject({});

/** A modern client of the Tasks extension on `url`, closed with the case. */
async function taskClient(scope: Scope, url: URL, extra: object = {}): Promise<Client> {
  const connection = await connectHttp(url, {
    era: 'modern',
    capabilities: { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} }, ...extra },
    clientInfo: { name: 'attacker', version: '1' },
  });
  scope.defer(() => connection.close());
  return connection.client;
}

const get = (client: Client, taskId: string, timeout = 10_000) =>
  client.request({ method: 'tasks/get', params: { taskId } }, Task, { timeout });

/** Polls until the task leaves `working`, for up to 3 s. */
async function settled(client: Client, taskId: string) {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const task = await get(client, taskId);
    if (task.status !== 'working' || Date.now() > deadline) return task;
    await sleep(100);
  }
}

/** Creates an `audit` task and waits for its question; the task id and the question's key. */
async function auditTask(client: Client, order: string) {
  const taskId = taskOf(await client.callTool({ name: 'audit', arguments: { order_id: order } }))?.taskId;
  if (taskId === undefined) throw new Error('audit did not answer with a task');
  const task = await settled(client, taskId);
  const key = Object.keys(task.inputRequests ?? {})[0];
  if (task.status !== 'input_required' || key === undefined) throw new Error(`audit task is ${task.status}`);
  return { taskId, key };
}

/** The message of a rejection or of an error result, or `resolved`. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    (value) => {
      const result = value as { isError?: boolean; content?: Array<{ text?: string }> };
      return result?.isError === true ? (result.content ?? []).map((part) => part.text ?? '').join('') : 'resolved';
    },
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

export const taskCases: readonly Case[] = [
  {
    name: 'tasks: attempts, and what a task keeps of its client',
    timeoutMs: 40_000,
    options: ['(answers) attempts enforced for tasks', '(answers) tasks keep only the capabilities read'],
    async run(scope) {
      const server = await scope.server({ tasks: 'memory' });
      const client = await taskClient(scope, server.url);
      const { taskId, key } = await auditTask(client, 'ORD-1');
      let answers = 0;
      let status = 'input_required';
      let isError: boolean | undefined;
      while (status === 'input_required' && answers < 20) {
        const keyNow = Object.keys((await get(client, taskId)).inputRequests ?? {})[0] ?? key;
        await client
          .request(
            {
              method: 'tasks/update',
              params: { taskId, inputResponses: { [keyNow]: { action: 'accept', content: { confirm: 'nope' } } } },
            },
            Ack,
          )
          .catch(() => undefined);
        answers += 1;
        const task = (await settled(client, taskId)) as { status: string; result?: { isError?: boolean } };
        status = task.status;
        isError = task.result?.isError;
      }
      // Ten tasks from a client declaring 1 MB of capabilities.
      const heavy = await taskClient(scope, server.url, { experimental: { pad: { blob: 'x'.repeat(1_000_000) } } });
      const before = await server.heap();
      for (let index = 0; index < 10; index += 1) await auditTask(heavy, `ORD-${index}`);
      const per = ((await server.heap()) - before) / 10;
      return [
        outcome(
          'task with attempts 3, invalid answers',
          // Attempts used up is a tool error: `completed` with an isError result, as a ToolError in a task is.
          status === 'completed' && isError === true && answers <= 3,
          `after ${answers} invalid answers the task is ${status}${isError === true ? ' with an isError result' : ''} (limit: completed with isError after ≤ 3)`,
        ),
        outcome(
          '10 tasks from a client declaring 1 MB capabilities',
          per <= 100_000,
          `${(per / 1e3).toFixed(0)} kB heap per task (limit ≤ 100 kB)`,
        ),
      ];
    },
  },
  {
    name: 'tasks: store with Redis paused',
    timeoutMs: 45_000,
    options: ['storeTimeoutMs (5000) on the Redis task store'],
    async run(scope) {
      const redis = await scope.redis();
      const server = await scope.server({ redis: { url: redis.url, instanceId: 'a' }, tasks: 'redis' });
      const client = await taskClient(scope, server.url);
      const { taskId } = await auditTask(client, 'ORD-1');
      redis.pause();
      scope.defer(async () => redis.resume());
      const started = performance.now();
      const timed = async (promise: Promise<unknown>) => {
        const message = await failure(promise);
        return { message, ms: since(started) };
      };
      const results = await Promise.all([
        timed(get(client, taskId, 12_000)),
        timed(client.request({ method: 'tasks/cancel', params: { taskId } }, Ack, { timeout: 12_000 })),
        timed(client.callTool({ name: 'audit', arguments: { order_id: 'ORD-2' } }, { timeout: 12_000 })),
      ]);
      redis.resume();
      await sleep(1_500);
      const after = await get(client, taskId).catch(() => ({ status: 'unreadable' }));
      const slowest = Math.max(...results.map((result) => result.ms));
      const unmasked = results.filter((result) => !result.message.includes('(ref '));
      return [
        outcome(
          'tasks/get, tasks/cancel, task tools/call with Redis paused',
          slowest <= 7_000 && unmasked.length === 0,
          `ended after ${results.map((result) => result.ms).join(' / ')} ms: ${results.map((result) => `"${result.message.slice(0, 60)}"`).join(', ')} (limit: ≤ 7 s, masked errors with a ref)`,
        ),
        outcome(
          'the abandoned cancel after SIGCONT',
          after.status === 'input_required',
          `task is ${after.status} 1.5 s after Redis resumed (limit: input_required, the cancel never applied)`,
        ),
      ];
    },
  },
];
