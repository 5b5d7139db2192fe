/**
 * Tasks that outlive their instance, on the in-memory store with a fake clock: a task whose process
 * stopped (no heartbeat for `leaseMs`) is resumed by the instance a client polls, from its
 * recorded answers and `journaled()` steps; only questions never answered are asked; two
 * instances resuming at once: one wins; past `maxResumes` the task fails; the old run's writes
 * are refused once another instance holds the task.
 */
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { McpResolveServerOptions } from 'mcp-resolve';
import { elicit, McpResolveServer, resolver } from 'mcp-resolve';
import type { TaskStore } from 'mcp-resolve/contracts';
import { createMemoryTaskStore } from 'mcp-resolve/contracts';
import { journaled } from 'mcp-resolve/mrtr';
import { getTask, taskOf, updateTask } from 'mcp-resolve/client';

import { textOf } from '../resolvers/helpers.js';
import { connectTasks, racingStore, until } from './helpers.js';

/** Long enough that no real heartbeat fires during a test: only the fake clock makes a lease run out. */
const LEASE_MS = 600_000;

const Approve = z.object({ approve: z.boolean() });
const Name = z.object({ name: z.string() });

/** What every instance of a test did, as if each were its own process. */
function fleetLog() {
  return { bodies: [] as string[], labels: 0, asked: [] as string[] };
}
type FleetLog = ReturnType<typeof fleetLog>;

/** How an instance's body (or resolver) behaves: `hang` is a process that stops there, `finish` goes on. */
type Fate = 'hang' | 'finish';
const stopsHere = () => new Promise<never>(() => undefined);

/** One server instance over the shared `store`, named `name` in the log. */
async function instance(
  name: string,
  store: TaskStore,
  log: FleetLog,
  fate: Fate,
  tasks: McpResolveServerOptions['tasks'] = {},
) {
  const approval = resolver({ name: 'approval', args: { order: z.string() } }, ({ order }) => {
    log.asked.push(`${name}: approval`);
    return elicit(`Refund ${order}?`, Approve);
  });
  const first = resolver({ name: 'first' }, () => {
    log.asked.push(`${name}: first`);
    return elicit('First name?', Name);
  });
  const greeting = resolver({ name: 'greeting', deps: { who: first } }, ({ who }) => {
    log.asked.push(`${name}: greeting`);
    return fate === 'hang' ? stopsHere() : elicit(`Greeting for ${who.name}?`, z.object({ text: z.string() }));
  });
  const server = new McpResolveServer(
    { name: 'resume', version: '1' },
    { tasks: { store, leaseMs: LEASE_MS, ...tasks } },
  )
    .tool(
      'refund',
      { input: { order: z.string() }, resolve: { decision: approval }, task: 'required' },
      async ({ order, decision }) => {
        log.bodies.push(name);
        if (fate === 'hang') await stopsHere();
        return `Refunded ${order} (${decision.approve ? 'approved' : 'refused'}) on ${name}`;
      },
    )
    .tool(
      'ship',
      { input: { order: z.string() }, task: 'required' },
      journaled<{ order: string }>(async ({ order }, ctx) => {
        log.bodies.push(name);
        const label = await ctx.step('label', () => {
          log.labels++;
          return `label-${order}`;
        });
        if (fate === 'hang') await stopsHere();
        return `${label} shipped on ${name}`;
      }),
    )
    .tool('chain', { resolve: { g: greeting }, task: 'required' }, ({ g }) => g.text)
    .tool(
      'asked',
      {
        input: { order: z.string() },
        resolve: { decision: approval },
        task: { support: 'required', questions: 'before-task' },
      },
      async () => {
        log.bodies.push(name);
        if (fate === 'hang') await stopsHere();
        return `answered before the task, finished on ${name}`;
      },
    );
  const { client } = await connectTasks(server);
  return client;
}

/** Moves the fake clock past the lease: every instance that was running a body has "stopped". */
function leaseRunsOut(): void {
  vi.setSystemTime(Date.now() + LEASE_MS + 1);
}

/**
 * How long a `vi.waitFor` waits for what the test awaits (vitest's default is 1 s): as for
 * `expect.poll` in vitest.config.ts, it passes as soon as the value comes, so only a starved
 * machine waits longer, and it is never failed for being slow.
 */
const WAITING = { timeout: 30_000 };

/** Lets every pending microtask of the in-memory store run. */
const settled = () => new Promise((done) => setImmediate(done));

/** Starts `ship` on `client`'s instance and waits until its body recorded its step (then stops there on a `hang` instance). */
async function shipping(client: Awaited<ReturnType<typeof instance>>, store: TaskStore, order: string) {
  const taskId = taskOf(await client.callTool({ name: 'ship', arguments: { order } }))?.taskId ?? '';
  await vi.waitFor(
    async () => expect((await store.get(taskId))?.steps).toEqual({ label: [`label-${order}`] }),
    WAITING,
  );
  return taskId;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a task whose instance stopped mid-body', () => {
  it('is resumed by the instance the client polls, with the answer recorded: nothing is asked again', async () => {
    const store = createMemoryTaskStore();
    const log = fleetLog();
    const onA = await instance('A', store, log, 'hang');
    const onB = await instance('B', store, log, 'finish');
    const taskId = taskOf(await onA.callTool({ name: 'refund', arguments: { order: 'ORD-1' } }))?.taskId ?? '';
    const [key = ''] = Object.keys((await until(onA, taskId, 'input_required')).inputRequests ?? {});
    await updateTask(onA, taskId, { [key]: { action: 'accept', content: { approve: true } } });
    await vi.waitFor(() => expect(log.bodies).toEqual(['A']), WAITING);

    leaseRunsOut();
    const resumed = await getTask(onB, taskId);
    expect(resumed.status).toBe('working');
    expect(resumed.statusMessage).toBe(
      'Resumed on another server instance after the one running it stopped (resume 1 of at most 3).',
    );
    const done = await until(onB, taskId, 'completed', 'input_required');
    expect(textOf(done.result ?? { content: [] })).toBe('Refunded ORD-1 (approved) on B');
    expect(log.bodies).toEqual(['A', 'B']);
    // The resolver runs on every pass; its question reached the client once, on A's first pass.
    expect(log.asked).toEqual(['A: approval', 'A: approval', 'B: approval']);
    expect(await store.get(taskId)).toMatchObject({ status: 'completed', resumes: 1 });
  });

  it('does not run a journaled step its first run completed', async () => {
    const store = createMemoryTaskStore();
    const log = fleetLog();
    const onA = await instance('A', store, log, 'hang');
    const onB = await instance('B', store, log, 'finish');
    const taskId = await shipping(onA, store, 'ORD-6');

    leaseRunsOut();
    await getTask(onB, taskId);
    const done = await until(onB, taskId, 'completed');
    expect(textOf(done.result ?? { content: [] })).toBe('label-ORD-6 shipped on B');
    expect(log.bodies).toEqual(['A', 'B']);
    expect(log.labels).toBe(1);
  });

  it('asks only the question never answered when it stopped during a resolver pass', async () => {
    const store = createMemoryTaskStore();
    const log = fleetLog();
    const onA = await instance('A', store, log, 'hang');
    const onB = await instance('B', store, log, 'finish');
    const taskId = taskOf(await onA.callTool({ name: 'chain', arguments: {} }))?.taskId ?? '';
    const parked = await until(onA, taskId, 'input_required');
    const [firstKey = ''] = Object.keys(parked.inputRequests ?? {});
    await updateTask(onA, taskId, { [firstKey]: { action: 'accept', content: { name: 'Ada' } } });
    await vi.waitFor(() => expect(log.asked).toContain('A: greeting'), WAITING);

    leaseRunsOut();
    await getTask(onB, taskId);
    const asked = await until(onB, taskId, 'input_required');
    expect(Object.values(asked.inputRequests ?? {})).toEqual([
      expect.objectContaining({ params: expect.objectContaining({ message: 'Greeting for Ada?' }) }),
    ]);
    const [greetingKey = ''] = Object.keys(asked.inputRequests ?? {});
    await updateTask(onB, taskId, { [greetingKey]: { action: 'accept', content: { text: 'Hello, Ada' } } });
    const done = await until(onB, taskId, 'completed');
    expect(textOf(done.result ?? { content: [] })).toBe('Hello, Ada');
  });

  it('keeps the answers of questions asked before the task (before-task) for the instance that resumes it', async () => {
    const store = createMemoryTaskStore();
    const log = fleetLog();
    const onA = await instance('A', store, log, 'hang');
    const onB = await instance('B', store, log, 'finish');
    onA.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { approve: true } }));
    const taskId = taskOf(await onA.callTool({ name: 'asked', arguments: { order: 'ORD-2' } }))?.taskId ?? '';
    await vi.waitFor(() => expect(log.bodies).toEqual(['A']), WAITING);

    leaseRunsOut();
    await getTask(onB, taskId);
    const done = await until(onB, taskId, 'completed', 'input_required');
    expect(textOf(done.result ?? { content: [] })).toBe('answered before the task, finished on B');
    expect(log.bodies).toEqual(['A', 'B']);
  });
});

describe('two instances resuming the same task at once', () => {
  it('lets exactly one take it over and run it; the other backs off, and both clients see one outcome', async () => {
    const memory = createMemoryTaskStore();
    const log = fleetLog();
    const onA = await instance('A', memory, log, 'hang');
    const taskId = await shipping(onA, memory, 'ORD-3');

    const store = racingStore(memory);
    const onB = await instance('B', store, log, 'finish');
    const onC = await instance('C', store, log, 'finish');
    leaseRunsOut();
    const seen = await Promise.all([getTask(onB, taskId), getTask(onC, taskId)]);
    expect(store.outcomes).toEqual([true, false]);
    expect(seen.map((task) => task.status)).toEqual(['working', 'working']);
    const [onB1, onC1] = await Promise.all([until(onB, taskId, 'completed'), until(onC, taskId, 'completed')]);
    expect(onB1.result).toEqual(onC1.result);
    expect(log.bodies.filter((body) => body !== 'A')).toHaveLength(1);
    expect(log.labels).toBe(1);
    expect(await memory.get(taskId)).toMatchObject({ status: 'completed', resumes: 1 });
  });
});

describe('the resume bound', () => {
  it('fails a task whose instance stopped once more than maxResumes allows, saying so', async () => {
    const store = createMemoryTaskStore();
    const log = fleetLog();
    const onA = await instance('A', store, log, 'hang', { maxResumes: 1 });
    const onB = await instance('B', store, log, 'hang', { maxResumes: 1 });
    const taskId = await shipping(onA, store, 'ORD-4');
    leaseRunsOut();
    expect((await getTask(onB, taskId)).status).toBe('working');
    await vi.waitFor(() => expect(log.bodies).toEqual(['A', 'B']), WAITING);

    leaseRunsOut();
    const lost = await getTask(onA, taskId);
    expect(lost.status).toBe('failed');
    expect(lost.error).toEqual({
      code: -32603,
      message:
        'Task lost: the server process running it stopped (no heartbeat for 600000 ms), after 1 resume(s) (tasks.maxResumes is 1). Start the tool again.',
    });
    expect(log.labels).toBe(1);
  });

  it('never resumes with maxResumes 0: the task is failed, as it was before resumes', async () => {
    const store = createMemoryTaskStore();
    const log = fleetLog();
    const onA = await instance('A', store, log, 'hang', { maxResumes: 0 });
    const onB = await instance('B', store, log, 'finish', { maxResumes: 0 });
    const taskId = await shipping(onA, store, 'ORD-5');
    leaseRunsOut();
    expect((await getTask(onB, taskId)).error?.message).toMatch(
      /^Task lost: .* after 0 resume\(s\) \(tasks.maxResumes is 0\)/,
    );
    expect(log.bodies).toEqual(['A']);
  });

  it('refuses a maxResumes that is not a non-negative integer', () => {
    const server = new McpResolveServer({ name: 'x', version: '1' }, { tasks: { maxResumes: -1 } });
    expect(() => server.tool('t', { task: 'required' }, () => '')).toThrow(
      'new McpResolveServer(): tasks.maxResumes must be a non-negative integer (got -1).',
    );
  });
});

/** A promise and the function that resolves it. */
function deferred() {
  let release: () => void = () => undefined;
  const promise = new Promise<void>((done) => (release = done));
  return { promise, release };
}

describe('the run that lost the task', () => {
  /** Instances A and B over one store; A's body holds until released (a paused process), B's until released too. */
  async function pausedAndResumed(instanceOf: (name: 'A' | 'B', server: McpResolveServer) => McpResolveServer) {
    const store = createMemoryTaskStore();
    const server = (name: 'A' | 'B') =>
      instanceOf(name, new McpResolveServer({ name, version: '1' }, { tasks: { store, leaseMs: LEASE_MS } }));
    const onA = (await connectTasks(server('A'))).client;
    const onB = (await connectTasks(server('B'))).client;
    const taskId = taskOf(await onA.callTool({ name: 'work', arguments: {} }))?.taskId ?? '';
    const ownerA = await vi.waitFor(
      async () => (await store.get(taskId))?.owner ?? expect.fail('not claimed'),
      WAITING,
    );
    leaseRunsOut();
    await getTask(onB, taskId);
    await vi.waitFor(async () => expect((await store.get(taskId))?.owner).not.toBe(ownerA), WAITING);
    return { store, onB, taskId };
  }

  it('cannot record its journaled steps while another instance holds the task: it stops there', async () => {
    const gates = { A: deferred(), B: deferred() };
    const steps: string[] = [];
    const { store, onB, taskId } = await pausedAndResumed((name, server) =>
      server.tool(
        'work',
        { task: 'required' },
        journaled(async (_args, ctx) => {
          await gates[name].promise;
          await ctx.step('notify', () => steps.push(name));
          return `from ${name}`;
        }),
      ),
    );
    // A was only paused (a long GC, a partition): it wakes while B holds the task.
    gates.A.release();
    await settled();
    // Its step ran (the window between a step's effect and its record), but the step was not recorded.
    expect(steps).toEqual(['A']);
    expect(await store.get(taskId)).toMatchObject({ status: 'working' });
    expect((await store.get(taskId))?.steps).toBeUndefined();
    gates.B.release();
    const done = await until(onB, taskId, 'completed');
    expect(textOf(done.result ?? { content: [] })).toBe('from B');
    expect(await store.get(taskId)).toMatchObject({ steps: { notify: [2] } });
  });

  it('cannot record its outcome while another instance holds the task', async () => {
    const gates = { A: deferred(), B: deferred() };
    const { store, onB, taskId } = await pausedAndResumed((name, server) =>
      server.tool('work', { task: 'required' }, async () => {
        await gates[name].promise;
        return `from ${name}`;
      }),
    );
    gates.A.release();
    await settled();
    expect(await store.get(taskId)).toMatchObject({ status: 'working' });
    gates.B.release();
    const done = await until(onB, taskId, 'completed');
    expect(textOf(done.result ?? { content: [] })).toBe('from B');
  });
});
