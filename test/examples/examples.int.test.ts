/**
 * Every small example in examples/ runs, over real wire: stdio or HTTP from a child process, and
 * the Workers, Deno and Bun modules through their fetch handler on Node (a real Deno and Bun run
 * the refund desk in `npm run runtimes`). Project: integration (child processes, redis-server).
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';

import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { TASKS_EXTENSION } from 'mcp-resolve/contracts';
import type { Era } from 'mcp-resolve';
import type { TestConnection } from 'mcp-resolve/testing';
import { answerPage, connectHttp, connectStdio } from 'mcp-resolve/testing';
import { getTask, taskOf, updateTask } from 'mcp-resolve/client';

import { listeningUrl } from '../../examples/stories/lib/serverProcess.js';
import { startRedisServer } from '../../scripts/lib/processes.js';

const ERAS: readonly Era[] = ['modern', 'legacy'];
const KEYS = randomBytes(32).toString('hex');
const BOOKED = 'booked garden for 2 night(s): 24000 cents';

/** Answers the hotel's question: 2 nights. */
const twoNights = (params: ElicitRequest['params']): ElicitResult => {
  expect(params.message).toBe('How many nights in the garden room?');
  return { action: 'accept', content: { nights: 2 } };
};

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** Starts `examples/<file>` with tsx and `env`, and waits for its `listening on <url>` line. */
async function start(file: string, env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', `examples/${file}`], {
    env: { ...process.env, PORT: '0', MCP_REQUEST_STATE_KEYS: KEYS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  open.push({ close: stop });
  const url = await listeningUrl(child, { name: file, timeoutMs: 20_000 });
  return { url, stdout: () => stdout, stop };
}

/** Keeps `connection` to be closed after the test. */
function kept(connection: TestConnection): TestConnection {
  open.push(connection);
  return connection;
}

const stdio = (file: string, era: Era, elicit?: typeof twoNights, capabilities?: object) =>
  connectStdio(process.execPath, ['--import', 'tsx', `examples/${file}`], {
    era,
    ...(elicit && { elicit }),
    ...(capabilities && { capabilities }),
  }).then(kept);

/**
 * A connection to a fetch handler in this process, the path Workers, Deno and Bun take. Their
 * runtimes set the Host header on every Request; Node's does not, so it is set here.
 */
const viaFetch = (fetch: (request: Request) => Promise<Response>, era: Era) =>
  connectHttp(new URL('http://127.0.0.1/mcp'), {
    era,
    elicit: twoNights,
    transportOptions: {
      fetch: (input, init) => {
        const request = new Request(input, init);
        request.headers.set('host', new URL(request.url).host);
        return fetch(request);
      },
    },
  }).then(kept);

async function book(connection: TestConnection): Promise<unknown> {
  const result = await connection.client.callTool({ name: 'book_room', arguments: { room: 'garden' } });
  return result.content;
}

describe('examples', () => {
  it.each(ERAS)('tool.ts: resolvers and one question, over stdio on %s', async (era) => {
    const connection = await stdio('tool.ts', era, twoNights);
    expect(await book(connection)).toEqual([{ type: 'text', text: BOOKED }]);
  });

  it('testing.ts: its checks pass on both eras', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/testing.ts'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(stdout).toBe('testing.ts: modern ok\ntesting.ts: legacy ok\n');
  });

  it.each(ERAS)('prompts-and-resources.ts: a prompt with a resolver, two resources, on %s', async (era) => {
    const { client } = await stdio('prompts-and-resources.ts', era);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => [prompt.name, prompt.arguments?.map((arg) => arg.name)])).toEqual([
      ['triage', ['ticket_id']],
    ]);
    const prompt = await client.getPrompt({ name: 'triage', arguments: { ticket_id: '42' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Triage #42: Printer on fire' });
    const list = await client.readResource({ uri: 'tickets://open' });
    expect(list.contents).toEqual([{ uri: 'tickets://open', text: '["42"]' }]);
    const one = await client.readResource({ uri: 'tickets://42' });
    expect(one.contents).toEqual([{ uri: 'tickets://42', text: '#42 Printer on fire (open)' }]);
  });

  it('task.ts: the call returns a task that waits for the answer, on modern', async () => {
    const capabilities = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
    const { client } = await stdio('task.ts', 'modern', undefined, capabilities);
    const returned = await client.callTool({ name: 'request_purchase', arguments: { amount_cents: 5000 } });
    const handle = taskOf(returned);
    expect(handle).toBeDefined();
    const taskId = handle?.taskId ?? '';
    let task = await getTask(client, taskId);
    for (let poll = 0; task.status === 'working' && poll < 100; poll += 1) task = await getTask(client, taskId);
    expect(task.status).toBe('input_required');
    const [key] = Object.keys(task.inputRequests ?? {});
    await updateTask(client, taskId, { [key ?? '']: { action: 'accept', content: { approve: true } } });
    for (let poll = 0; task.status !== 'completed' && poll < 100; poll += 1) task = await getTask(client, taskId);
    expect(task.result?.content).toEqual([{ type: 'text', text: 'ordered (5000 cents)' }]);
  });

  it('task.ts: an ordinary call with a pushed question, on legacy; a decline is "not ordered"', async () => {
    const { client } = await stdio('task.ts', 'legacy', () => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'request_purchase', arguments: { amount_cents: 5000 } });
    expect(result.content).toEqual([{ type: 'text', text: 'not ordered' }]);
  });

  it.each(ERAS)('serve-node.ts: serveHttp on %s', async (era) => {
    const { url } = await start('serve-node.ts');
    expect(await book(await connectHttp(url, { era, elicit: twoNights }).then(kept))).toEqual([
      { type: 'text', text: BOOKED },
    ]);
  });

  it.each(ERAS)(
    'answer-page.ts: a client that declares only URL elicitation answers on the page, on %s',
    async (era) => {
      const { url } = await start('answer-page.ts');
      const questions: string[] = [];
      const onPage = async (params: ElicitRequest['params']): Promise<ElicitResult> => {
        if (params.mode !== 'url') throw new Error(`expected a URL question, got ${JSON.stringify(params)}`);
        questions.push(params.message);
        // The person opens the link and answers the form; the client reports they agreed to go.
        const page = await answerPage(params.url, { action: 'accept', content: { nights: 2 } });
        expect(page.saved).toBe(true);
        return { action: 'accept' };
      };
      const connection = await connectHttp(url, { era, capabilities: { elicitation: { url: {} } }, elicit: onPage });
      expect(await book(kept(connection))).toEqual([{ type: 'text', text: BOOKED }]);
      expect(questions).toEqual(['How many nights in the garden room?']);
    },
  );

  it('serve-workers.ts: the Worker module serves modern and refuses legacy cleanly', async () => {
    const { default: worker } = await import('../../examples/serve-workers.js');
    const fetch = (request: Request) => worker.fetch(request, { MCP_REQUEST_STATE_KEYS: KEYS });
    expect(await book(await viaFetch(fetch, 'modern'))).toEqual([{ type: 'text', text: BOOKED }]);
    await expect(viaFetch(fetch, 'legacy')).rejects.toThrow();
  });

  it.each(ERAS)('serve-deno.ts and serve-bun.ts: their fetch handlers on %s', async (era) => {
    for (const module of [await import('../../examples/serve-deno.js'), await import('../../examples/serve-bun.js')]) {
      expect(await book(await viaFetch(module.default.fetch, era))).toEqual([{ type: 'text', text: BOOKED }]);
    }
  });

  it('fleet-redis.ts: two instances on one redis-server serve alternate requests of one call, on both eras', async () => {
    const redis = await startRedisServer();
    open.push({ close: () => redis.dispose() });
    const instances = await Promise.all([1, 2].map(() => start('fleet-redis.ts', { REDIS_URL: redis.url })));
    const ports = instances.map((instance) => instance.url.port);
    const seen = new Set<string>();
    let turn = 0;
    // A round-robin balancer: each request goes to the next instance.
    const balance = async (input: string | URL | Request, init?: RequestInit) => {
      const target = new URL(input instanceof Request ? input.url : input);
      target.port = ports[turn++ % ports.length] ?? '';
      const response = await fetch(target, init);
      seen.add(response.headers.get('mcp-resolve-instance') ?? '');
      return response;
    };
    for (const era of ERAS) {
      const connection = await connectHttp(instances[0]?.url ?? new URL('http://127.0.0.1/'), {
        era,
        elicit: twoNights,
        transportOptions: { fetch: balance },
      });
      expect(await book(kept(connection))).toEqual([{ type: 'text', text: BOOKED }]);
    }
    expect(seen.size).toBe(2);
  });

  it('opentelemetry.ts: a call leaves spans on stdout', async () => {
    const server = await start('opentelemetry.ts');
    const connection = await connectHttp(server.url, { era: 'modern', elicit: twoNights }).then(kept);
    expect(await book(connection)).toEqual([{ type: 'text', text: BOOKED }]);
    await connection.close();
    await server.stop();
    expect(server.stdout()).toContain("'hotel.room': 'garden'");
    expect(server.stdout()).toContain("name: 'mcp-resolve'");
  });
});
