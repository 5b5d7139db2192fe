/**
 * `attempts` is a limit the client cannot get around: on 2026-07-28 the count lives in the sealed
 * state, so rounds that leave the answer out in between do not reset it; a task counts on its
 * record, so a task is not asked again forever; and a fresh task of the same person does not reopen
 * a question whose attempts another task spent.
 */
import { elicit, resolver } from 'mcp-resolve';
import { taskOf, updateTask } from 'mcp-resolve/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import type { LegResult } from '../resolvers/helpers.js';
import { accept, connectManual, newServer, textOf } from '../resolvers/helpers.js';
import { connectTasks, until } from '../tasks/helpers.js';
import { closedQuestion } from './spent.js';

const Quantity = z.object({ quantity: z.number().int().min(1) });

/** A server whose `order` tool asks for a quantity; `principal`: who every call acts for (absent: anonymous, counted per call). */
function quantityServer(task: boolean, principal?: string) {
  const runs = { body: 0 };
  const ask = resolver({ name: 'quantity' }, () => elicit('How many?', Quantity, { attempts: 3 }));
  const server = newServer(principal === undefined ? {} : { principal: () => principal }).tool(
    'order',
    { resolve: { q: ask }, ...(task && { task: 'required' as const }) },
    ({ q }) => {
      runs.body++;
      return `ordered ${q.quantity}`;
    },
  );
  return { server, runs };
}

const FAILED =
  "Resolver 'quantity': the answer does not match the requested schema. The answer does not fit the form: check quantity.";

describe('attempts on 2026-07-28', () => {
  it('holds when rounds that leave the answer out come between invalid answers', async () => {
    const { server, runs } = quantityServer(false);
    const manual = await connectManual(server);
    let outcome: LegResult = await manual.round('order', {});
    let invalid = 0;
    for (let round = 0; round < 40 && outcome.kind === 'input_required'; round++) {
      const answer = round % 2 === 0;
      if (answer) invalid++;
      outcome = await manual.round(
        'order',
        {},
        {
          requestState: outcome.requestState,
          inputResponses: answer ? { quantity: accept({ quantity: 0 }) } : {},
        },
      );
    }
    expect(outcome.kind).toBe('complete');
    if (outcome.kind !== 'complete') return;
    expect(outcome.result.isError).toBe(true);
    expect(textOf(outcome.result)).toBe(FAILED);
    expect([invalid, runs.body]).toEqual([3, 0]);
  });

  it('shows the reason again on a round that left the answer out', async () => {
    const { server } = quantityServer(false);
    const manual = await connectManual(server);
    const r1 = await manual.round('order', {});
    if (r1.kind !== 'input_required') throw new Error('expected a question');
    const r2 = await manual.round(
      'order',
      {},
      { requestState: r1.requestState, inputResponses: { quantity: accept({ quantity: 0 }) } },
    );
    if (r2.kind !== 'input_required') throw new Error('expected a question');
    const r3 = await manual.round('order', {}, { requestState: r2.requestState, inputResponses: {} });
    if (r3.kind !== 'input_required') throw new Error('expected a question');
    expect(r3.inputRequests.quantity).toEqual(r2.inputRequests.quantity);
  });
});

describe('attempts in a task', () => {
  it('a task with attempts: 3 fails after the third invalid answer instead of asking forever', async () => {
    const { server, runs } = quantityServer(true);
    const { client } = await connectTasks(server);
    const handle = taskOf(await client.callTool({ name: 'order', arguments: {} }));
    if (handle === undefined) throw new Error('no task');
    let task = await until(client, handle.taskId, 'input_required');
    let invalid = 0;
    for (let i = 0; i < 25 && task.status === 'input_required'; i++) {
      const key = Object.keys(task.inputRequests ?? {})[0] ?? '';
      invalid++;
      await updateTask(client, handle.taskId, { [key]: { action: 'accept', content: { quantity: 0 } } });
      task = await until(client, handle.taskId, 'input_required');
    }
    expect(task.status).toBe('completed');
    expect(task.result).toMatchObject({ isError: true, content: [{ type: 'text', text: FAILED }] });
    expect([invalid, runs.body]).toEqual([3, 0]);
  });

  it('a fresh task of the same person finds the question closed once a task spent its attempts', async () => {
    const { server, runs } = quantityServer(true, 'alice');
    const { client } = await connectTasks(server);
    const start = async () => {
      const handle = taskOf(await client.callTool({ name: 'order', arguments: {} }));
      if (handle === undefined) throw new Error('no task');
      return handle.taskId;
    };
    const answer = async (taskId: string, quantity: number) => {
      const waiting = await until(client, taskId, 'input_required');
      const key = Object.keys(waiting.inputRequests ?? {})[0] ?? '';
      await updateTask(client, taskId, { [key]: { action: 'accept', content: { quantity } } });
    };
    const first = await start();
    for (let i = 0; i < 3; i++) await answer(first, 0);
    const fresh = await start();
    await answer(fresh, 2);
    const task = await until(client, fresh, 'input_required');
    expect(task.status).toBe('completed');
    expect(task.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(closedQuestion('quantity')) }],
    });
    expect(runs.body).toBe(0);
  });
});
