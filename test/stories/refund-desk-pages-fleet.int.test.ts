/**
 * The refund desk's whole story through answer pages on a fleet, in Chromium: two instances in this
 * process (`serveHttp` on loopback, the same sealing key, the replay guard and the legacy sessions
 * on a real redis-server, the answer pages in the same Redis with one form secret), a plain
 * round-robin nginx in front, and a person who opens and answers the pages through nginx. Each era,
 * for a client that declares only URL elicitation and for one with none, completes the story, and
 * in each run a page answered on one instance is used by the call on the other.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { ElicitRequest } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { startNginx } from '../../scripts/lib/fleetSetup.js';
import type { RedisServer } from '../../scripts/lib/processes.js';
import { findBinary, freePort, INSTALL_HINT, startRedisServer, stopChild } from '../../scripts/lib/processes.js';
import type { Era } from '../../src/context.js';
import { INSTANCE_HEADER } from '../../src/contracts/index.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import type { RedisFleet } from '../../src/redis/index.js';
import { connectRedisFleet, createRedisAnswerPageBackend } from '../../src/redis/index.js';
import { connectHttp } from '../../src/testing/index.js';
import { useBrowser } from '../fixtures/browser.js';
import { KEY_A } from '../state/helpers.js';
import { answerDeskPage, expectRefunded, refundByLinks, RESTOCK, SCOPE } from './deskPages.js';

/** The pages' form key, the same on both instances (a page shown by one is posted to the other). */
const FORM_SECRET = 'refund-desk-fleet-answer-page-form-secret';
const INSTANCES = ['desk-a', 'desk-b'];

const browser = useBrowser();
let redis: RedisServer | undefined;
let nginx: ChildProcess | undefined;
let nginxDir: string | undefined;
const members: Array<{ fleet: RedisFleet; served?: HttpServerHandle }> = [];
/** nginx's URL of the MCP endpoint. */
let endpoint: URL;

beforeAll(async () => {
  const binary = findBinary('nginx');
  if (binary === undefined) throw new Error(`nginx is not installed. Install it with: ${INSTALL_HINT}`);
  redis = await startRedisServer();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  for (const instanceId of INSTANCES) {
    const member: { fleet: RedisFleet; served?: HttpServerHandle } = {
      fleet: await connectRedisFleet({ url: redis.url, instanceId }),
    };
    members.push(member);
    const desk = createRefundDesk({
      requestState: { keys: [KEY_A], replayStore: member.fleet.replayStore },
      onerror: () => {},
      answerPage: {
        backend: await createRedisAnswerPageBackend(member.fleet.redis),
        formSecret: FORM_SECRET,
        publicOrigin: origin,
        // The story's callers are anonymous: a 2026-07-28 client without elicitation gets its link only so.
        anonymousLinksShareAnswers: true,
      },
    });
    member.served = await serveHttp(desk, { port: 0, sessionFleet: member.fleet.sessions });
  }
  const upstreams = members.map(({ served }) => Number(served!.url.port));
  nginxDir = mkdtempSync(join(tmpdir(), 'mcp-resolve-nginx-'));
  await startNginx(binary, nginxDir, port, upstreams, (child) => (nginx = child));
  endpoint = new URL('/mcp', origin);
}, 60_000);

afterAll(async () => {
  // Every step runs, whatever failed before it; the first failure is reported.
  const failures: unknown[] = [];
  const step = async (stop: () => Promise<void> | void) => {
    try {
      await stop();
    } catch (error) {
      failures.push(error);
    }
  };
  if (nginx !== undefined) await step(() => stopChild(nginx!));
  if (nginxDir !== undefined) await step(() => rmSync(nginxDir!, { recursive: true, force: true }));
  for (const { served, fleet } of members.splice(0)) {
    await step(async () => await served?.close());
    await step(() => fleet.close());
  }
  await step(async () => await redis?.dispose());
  if (failures.length > 0) throw failures[0];
}, 30_000);

/** One request through nginx: the instance that answered it, and what it was. */
interface Leg {
  readonly instance: string;
  /** `tools/call` (or another JSON-RPC method, `response` for a client's answer, `GET`, `DELETE`), or `page GET` / `page POST`. */
  readonly what: string;
}

/** The JSON-RPC method of a POST body the SDK client sends (`response` for its answer to a push). */
function methodOf(body: unknown): string {
  if (typeof body !== 'string') return 'POST';
  const message = JSON.parse(body) as { method?: unknown };
  return typeof message.method === 'string' ? message.method : 'response';
}

/** A fetch for the SDK client that records each request's instance in `legs`. */
function recordingFetch(legs: Leg[]) {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const what = init?.method === 'POST' ? methodOf(init.body) : (init?.method ?? 'GET');
    const response = await fetch(input, init);
    legs.push({ instance: response.headers.get(INSTANCE_HEADER) ?? 'none', what });
    return response;
  };
}

/** The person opens `url` in Chromium and answers the desk's question there (whole order; back to stock). */
async function answerOnPage(url: string, asked: string[], legs: Leg[]): Promise<void> {
  expect(url.startsWith(`${endpoint.origin}/mcp-resolve/answer/`)).toBe(true);
  const tab = await browser.page();
  tab.on('response', (response) => {
    const instance = response.headers()[INSTANCE_HEADER.toLowerCase()];
    if (instance !== undefined) legs.push({ instance, what: `page ${response.request().method()}` });
  });
  await answerDeskPage(tab, url, asked);
}

/**
 * For each answer given on a page (a `page POST`), the instances that stored it and that used it:
 * the next `tools/call` (a retry), or else the `tools/call` held open before it (a 2025-11-25 push).
 */
function handoffs(legs: readonly Leg[]): Array<{ page: string; call: string }> {
  return legs.flatMap((leg, index) => {
    if (leg.what !== 'page POST') return [];
    const call =
      legs.slice(index + 1).find(({ what }) => what === 'tools/call') ??
      legs.slice(0, index).findLast(({ what }) => what === 'tools/call');
    return call === undefined ? [] : [{ page: leg.instance, call: call.instance }];
  });
}

/** Both instances served the run, and a page answered on one was used by a call on the other. */
function expectAcrossInstances(legs: readonly Leg[]): void {
  expect(new Set(legs.map(({ instance }) => instance))).toEqual(new Set(INSTANCES));
  const crossed = handoffs(legs).filter(({ page, call }) => page !== call);
  expect(crossed.length, JSON.stringify(legs)).toBeGreaterThan(0);
}

const ERAS: Era[] = ['modern', 'legacy'];

describe.each(ERAS)('the refund desk through answer pages on a fleet behind nginx (%s era)', (era) => {
  it('completes for a client that declares only URL elicitation', { timeout: 60_000 }, async () => {
    const asked: string[] = [];
    const messages: string[] = [];
    const legs: Leg[] = [];
    const connection = await connectHttp(endpoint, {
      era,
      capabilities: { elicitation: { url: {} } },
      transportOptions: { fetch: recordingFetch(legs) },
      elicit: async (params: ElicitRequest['params']) => {
        expect(params.mode).toBe('url');
        if (params.mode !== 'url') return { action: 'decline' };
        messages.push(params.message);
        await answerOnPage(params.url, asked, legs);
        return { action: 'accept' };
      },
    });
    try {
      await expectRefunded(connection, asked);
      expect(messages).toEqual([SCOPE, RESTOCK]);
    } finally {
      await connection.close();
    }
    expectAcrossInstances(legs);
  });

  it(
    'completes for a client without elicitation: a link in the result, then the same call again',
    { timeout: 60_000 },
    async () => {
      const asked: string[] = [];
      const legs: Leg[] = [];
      const connection = await connectHttp(endpoint, {
        era,
        capabilities: {},
        transportOptions: { fetch: recordingFetch(legs) },
      });
      try {
        await refundByLinks(connection, asked, (url) => answerOnPage(url, asked, legs));
      } finally {
        await connection.close();
      }
      expectAcrossInstances(legs);
    },
  );
});
