/**
 * The server `npm run attack` attacks: the built package (the runner compiles this file to
 * .build/server.mjs beside it, where `mcp-resolve/*` resolves through the package's own exports to
 * dist/), configured by the JSON in `ATTACK_CONFIG` (see {@link ServerConfig}).
 *
 * Tools: `wait` (answers after `ms`, or when cancelled), `refund` (one form question, `attempts: 3`), `refund2` (that question, then another), `ask_url` (one URL question), `audit` (the
 * same question in a task, when `tasks` is set), `note` (a form question echoing its argument: a
 * page as large as the argument, with `answerPage` set), `lock` (a 4-digit code its resolver checks,
 * `attempts: 3`; the code is `0030`), `letters` (a form question whose field has the author's pattern
 * `^(a+)+$`, exponential for a backtracking engine on a near-miss) and `echo`. A probe server on
 * `probePort` answers `GET /heap` (heap used after a full GC and the finalizers it queued, bytes),
 * `GET /spans` (spans exported, by trace id) and `GET /stall` (the longest event-loop delay since the
 * last `/stall`, ms). Writes `attack-server ready` on stderr once both listen.
 */
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';

import type { McpResolveServerOptions } from 'mcp-resolve';
import { elicit, elicitUrl, McpResolveServer, resolver } from 'mcp-resolve';
import type { ServeHttpOptions } from 'mcp-resolve/node';
import { serveHttp } from 'mcp-resolve/node';
import { otel } from 'mcp-resolve/otel';
import type { RedisFleet } from 'mcp-resolve/redis';
import { connectRedisFleet, createRedisAnswerPageBackend, createRedisTaskStore } from 'mcp-resolve/redis';
import { createMemoryAnswerPageBackend, createMemoryTaskStore } from 'mcp-resolve/contracts';

/** What `ATTACK_CONFIG` holds. */
export interface ServerConfig {
  /** Extra `serveHttp` options (JSON values only); the rest stay at their defaults. */
  readonly http?: Record<string, unknown>;
  /** Extra `McpResolveServer` options (JSON values only). */
  readonly server?: Record<string, unknown>;
  /** Makes this a fleet member on this Redis (`extra`: more `connectRedisFleet` options). */
  readonly redis?: { readonly url: string; readonly instanceId: string; readonly extra?: Record<string, unknown> };
  /** Declares the `audit` task tool on a task store in memory or in the fleet's Redis. */
  readonly tasks?: 'memory' | 'redis';
  /** Bearer tokens `token-<principal>` authenticate `<principal>`; anything else is 401. */
  readonly auth?: boolean;
  /** The `oauth` option of `serveHttp` (bearer tokens from a real issuer); not with `auth`. */
  readonly oauth?: Record<string, unknown>;
  /**
   * Serves answer pages kept in memory or (on a fleet member) in its Redis, with these backend
   * options (`bounds`) and more `answerPage` options (`options`, e.g. `signIn`, `publicOrigin`).
   */
  readonly answerPage?: {
    readonly backend: 'memory' | 'redis';
    readonly bounds?: Record<string, unknown>;
    readonly options?: Record<string, unknown>;
  };
  /** Exports spans to an in-memory counter (read with `GET /spans` on the probe port). */
  readonly otel?: boolean;
  /** Turns the `apps` option on (the question app: SEP-3118 and in the chat), on its defaults (its questions in Redis on a fleet member). */
  readonly apps?: boolean;
  readonly port: number;
  readonly probePort: number;
}

const config = JSON.parse(process.env.ATTACK_CONFIG ?? '{}') as ServerConfig;

/** Spans exported, by trace id. */
const spans = new Map<string, number>();
class CountingExporter implements SpanExporter {
  export(batch: ReadableSpan[], done: (result: { code: 0 }) => void): void {
    for (const span of batch) {
      const id = span.spanContext().traceId;
      spans.set(id, (spans.get(id) ?? 0) + 1);
    }
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
}

let fleet: RedisFleet | undefined;
if (config.redis !== undefined) {
  try {
    fleet = await connectRedisFleet({
      url: config.redis.url,
      instanceId: config.redis.instanceId,
      ...config.redis.extra,
      onerror: (error: Error) => console.error(`attack-server: ${error.message}`),
    });
  } catch (error) {
    console.error(`attack-server refused to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(3);
  }
}

const Confirm = z.object({ confirm: z.boolean() });
const confirm = resolver({ name: 'confirm' }, () => elicit('Confirm the refund?', Confirm, { attempts: 3 }));
const Reason = z.object({ reason: z.string() });
const reason = resolver({ name: 'reason', deps: { confirm } }, () => elicit('Why?', Reason));
const Keep = z.object({ keep: z.boolean() });
const keep = resolver({ name: 'keep', args: { text: z.string() } }, ({ text }) =>
  elicit(`Keep this note? ${text}`, Keep),
);
/** The author's own pattern, catastrophic for a backtracking engine: RE2 matches it in linear time. */
const Letters = z.object({ code: z.string().regex(/^(a+)+$/) });
const letters = resolver({ name: 'letters', args: { text: z.string() } }, ({ text }) =>
  elicit(`Letters for ${text}?`, Letters),
);
const Code = z.object({ code: z.string() });
const code = resolver({ name: 'code' }, () =>
  elicit('Enter the 4-digit code', Code, {
    attempts: 3,
    check: ({ code: guess }) => (guess === '0030' ? undefined : 'That is not the code.'),
  }),
);
const page = resolver({ name: 'page' }, () => elicitUrl('Open this page to pay.', 'https://pay.example.com/checkout'));

const tracerProvider = config.otel
  ? new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new CountingExporter())] })
  : undefined;
const taskStore =
  config.tasks === 'redis' && fleet !== undefined
    ? createRedisTaskStore(fleet.redis)
    : config.tasks === 'memory'
      ? createMemoryTaskStore()
      : undefined;
async function answerPageBackend(options: NonNullable<ServerConfig['answerPage']>) {
  if (options.backend === 'memory') return createMemoryAnswerPageBackend(options.bounds);
  if (fleet === undefined) throw new Error('answerPage.backend redis needs redis');
  return createRedisAnswerPageBackend(fleet.redis, options.bounds);
}

const serverOptions = {
  ...config.server,
  ...(config.answerPage && {
    // The page rows flood with anonymous clients of every kind, those without elicitation included.
    answerPage: {
      backend: await answerPageBackend(config.answerPage),
      anonymousLinksShareAnswers: true,
      ...config.answerPage.options,
    },
  }),
  // On a fleet member the app's questions live in its Redis, as a fleet keeps them.
  ...(config.apps && { apps: fleet ? { backend: await createRedisAnswerPageBackend(fleet.redis) } : {} }),
  ...(fleet && { requestState: { replayStore: fleet.replayStore }, answerAttempts: { store: fleet.attempts } }),
  ...(taskStore && { tasks: { store: taskStore, pollIntervalMs: 200 } }),
  ...(tracerProvider && { telemetry: otel({ tracerProvider, ...config.server }) }),
} as McpResolveServerOptions;

let server = new McpResolveServer({ name: 'attack', version: '1.0.0' }, serverOptions)
  .tool('echo', { input: { text: z.string() } }, ({ text }) => text)
  .tool('wait', { input: { ms: z.number().int().min(0).max(5_000) } }, async ({ ms }, ctx) => {
    const signal = ctx.mcpReq.signal;
    const waited = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(true), ms);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve(false)), { once: true });
    });
    return waited ? `waited ${ms} ms` : 'cancelled';
  })
  .tool('refund', { input: { order_id: z.string() }, resolve: { confirm } }, ({ order_id, confirm: answer }) =>
    answer.confirm ? `Refunded ${order_id}.` : `Kept ${order_id}.`,
  )
  .tool(
    'refund2',
    { input: { order_id: z.string() }, resolve: { confirm, reason } },
    ({ order_id }) => `Refunded ${order_id}.`,
  )
  .tool('ask_url', { input: {}, resolve: { page } }, () => 'Paid.')
  .tool('lock', { input: {}, resolve: { code } }, () => 'Unlocked')
  .tool('note', { input: { text: z.string() }, resolve: { keep } }, ({ keep: answer }) =>
    answer.keep ? 'Kept.' : 'Dropped.',
  )
  .tool(
    'letters',
    { input: { text: z.string() }, resolve: { letters } },
    ({ letters: answer }) => `Letters ${answer.code.length}.`,
  );
if (taskStore !== undefined)
  server = server.tool(
    'audit',
    { input: { order_id: z.string() }, resolve: { confirm }, task: 'required' },
    ({ order_id }) => `Audited ${order_id}.`,
  );

const httpOptions = {
  port: config.port,
  ...config.http,
  ...(fleet && { sessionFleet: fleet.sessions }),
  ...(config.oauth && { oauth: config.oauth }),
  ...(config.auth && {
    authenticate: (request: Request) => {
      const token = /^Bearer token-([a-z0-9-]+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
      if (token === undefined) return new Response('unauthorized', { status: 401 });
      return { token: `token-${token}`, clientId: token, scopes: [] };
    },
  }),
} as ServeHttpOptions;
const handle = await serveHttp(server, httpOptions);

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const probe = createServer((request, response) => {
  if (request.url === '/stall') {
    response.end(String(Math.round(loopDelay.max / 1e6)));
    loopDelay.reset();
  } else if (request.url === '/heap') {
    // A full GC, a turn of the loop for the finalizers it queued (undici's Request keeps the signal
    // it follows until its finalizer runs), and a full GC again: what stays is what is held.
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    setImmediate(() => {
      gc?.();
      response.end(String(process.memoryUsage().heapUsed));
    });
  } else if (request.url === '/spans') {
    response.end(JSON.stringify(Object.fromEntries(spans)));
  } else {
    response.statusCode = 404;
    response.end();
  }
});
probe.listen(config.probePort, '127.0.0.1', () => console.error(`attack-server ready on ${handle.url.href}`));

const stop = () =>
  void handle
    .close()
    .then(async () => (await fleet?.close(), probe.close(), process.exit(0)))
    .catch(() => process.exit(1));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
