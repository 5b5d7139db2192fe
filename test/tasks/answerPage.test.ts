/**
 * Tasks use the answer page: a task's form question for a client that shows no forms (URL
 * elicitation only) parks as a URL question to the page, under its opaque key; the page is bound to
 * the task (its id is the call's secret). Accepting the URL question before the page is answered
 * parks it again on the same page; once the page is answered, accepting it runs the body with the
 * page's answer.
 */
import type { Client } from '@modelcontextprotocol/client';
import { elicit, McpResolveServer, resolver } from 'mcp-resolve';
import { TASKS_EXTENSION } from 'mcp-resolve/contracts';
import { getTask, taskOf, updateTask } from 'mcp-resolve/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createMemoryAnswerPageBackend } from '../../src/pageStore/memoryBackend.js';
import { createAnswerPageStore } from '../../src/pageStore/store.js';
import { textOf } from '../resolvers/helpers.js';
import { connectTasks, until } from './helpers.js';

/** A task tool asking one form question, with answer pages kept in `backend`. */
function refundTasks(backend: ReturnType<typeof createMemoryAnswerPageBackend>) {
  const confirm = resolver({ name: 'confirm', args: { order_id: z.string() } }, ({ order_id }) =>
    elicit(`Refund ${order_id}?`, z.object({ amount: z.number() })),
  );
  return new McpResolveServer(
    { name: 'refund-tasks', version: '1.0.0' },
    { answerPage: { publicOrigin: 'https://desk.example.com', backend } },
  ).tool(
    'refund',
    { input: { order_id: z.string() }, resolve: { confirm }, task: 'required' },
    ({ confirm: answer }) => `refunded ${answer.amount}`,
  );
}

/** The only parked question of a task: its key and URL. */
async function parkedQuestion(client: Client, taskId: string, notKey?: string) {
  for (let poll = 0; poll < 500; poll++) {
    const task = await until(client, taskId, 'input_required');
    const [key, request] = Object.entries(task.inputRequests ?? {})[0] ?? [];
    if (key !== undefined && key !== notKey) return { key, request: request as { params: Record<string, unknown> } };
    await new Promise((wake) => setTimeout(wake, 10));
  }
  throw new Error('the task never parked on a new question');
}

describe('a task for a client that declares URL elicitation only', () => {
  it('parks on a URL question to the page, and runs with the page answer once the URL question is accepted', async () => {
    const backend = createMemoryAnswerPageBackend();
    const { client } = await connectTasks(refundTasks(backend), 'modern', {
      elicitation: { url: {} },
      extensions: { [TASKS_EXTENSION]: {} },
    });
    const created = await client.callTool({ name: 'refund', arguments: { order_id: 'ORD-1' } });
    const taskId = taskOf(created)!.taskId;
    const first = await parkedQuestion(client, taskId);
    expect(first.request).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Refund ORD-1?' },
    });
    const url = String(first.request.params.url);
    expect(url).toMatch(/^https:\/\/desk\.example\.com\/mcp-resolve\/answer\/[\w-]{22}$/);

    // Accepted before the person answered: parked again, on the same page.
    await updateTask(client, taskId, { [first.key]: { action: 'accept' } });
    const again = await parkedQuestion(client, taskId, first.key);
    expect(again.request.params.url).toBe(url);

    // The person answers on the page (the store's own submit, as the page's handler does).
    const pageId = url.split('/').pop()!;
    const store = createAnswerPageStore({ backend });
    expect((await store.page(pageId))?.pageId).toBe(pageId);
    expect(await store.submit(pageId, { action: 'accept', content: { amount: 75 } })).toBe(true);

    await updateTask(client, taskId, { [again.key]: { action: 'accept' } });
    const done = await until(client, taskId, 'completed');
    expect(textOf(done.result ?? { content: [] })).toBe('refunded 75');
    expect((await getTask(client, taskId)).status).toBe('completed');
  });
});
