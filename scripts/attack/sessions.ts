/**
 * Legacy sessions and sockets under attack: what one session may hold (3.5 MB of declared
 * capabilities), sessions on a fleet (Redis bytes), silent GET streams past the idle limit,
 * header- and body-trickling sockets, one client opening many sessions, malformed requests.
 */
import { connect } from 'node:net';

import type { AttackServer, Case, Outcome } from './harness.js';
import { initialize, mb, spread, messageOf, outcome, paddedCapabilities, raw, rawSession, sleep } from './harness.js';

/** Sends `text` on a fresh socket and resolves to the status code of the answer (0: closed without one). */
function rawSocket(port: number, text: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      if (answer.includes('\r\n')) socket.destroy();
    });
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on('error', () => undefined);
    socket.setTimeout(5_000, () => socket.destroy());
    socket.write(text);
  });
}

/** A socket that sends a request slowly; `open()` says whether the server still holds it. */
function trickle(port: number, kind: 'headers' | 'body'): { open(): boolean; stop(): void } {
  const socket = connect(port, '127.0.0.1');
  let closed = false;
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  socket.write(
    kind === 'headers'
      ? 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n'
      : 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{',
  );
  const timer = setInterval(() => {
    if (!closed) socket.write(kind === 'headers' ? 'X-Slow: a\r\n' : ' ');
  }, 400);
  return {
    open: () => !closed,
    stop: () => (clearInterval(timer), socket.destroy()),
  };
}

/** Whether `stream` ends (or breaks) within `ms`, whatever it carried before. */
async function closed(stream: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<boolean> {
  const deadline = sleep(ms).then(() => 'open' as const);
  for (;;) {
    const next = await Promise.race([
      stream.read().then(
        ({ done }) => (done ? ('ended' as const) : ('data' as const)),
        () => 'ended' as const,
      ),
      deadline,
    ]);
    if (next !== 'data') return next === 'ended';
  }
}

/** Heap growth per admitted or refused initialize with `bytes` of capabilities. */
async function heapPer(server: AttackServer, count: number, bytes: number) {
  const before = await server.heap();
  const statuses: number[] = [];
  let message = '';
  for (let index = 0; index < count; index += 1) {
    const { response } = await rawSession(server.url, paddedCapabilities(bytes));
    statuses.push(response.status);
    if (response.status !== 200) message = messageOf(response).error?.message ?? response.body.slice(0, 200);
  }
  const after = await server.heap();
  return { per: (after - before) / count, before, after, admitted: statuses.filter((s) => s === 200).length, message };
}

export const sessionCases: readonly Case[] = [
  {
    name: 'heap per legacy session (3.5 MB capabilities)',
    timeoutMs: 40_000,
    options: ['maxClientCapabilitiesHeldBytes (16384)', 'maxLegacySessionHeldBytes (65536)'],
    async run(scope) {
      const server = await scope.server({});
      const big = await heapPer(server, 20, 3_500_000);
      // Warmed up first, so one-time costs (compiled code, caches) are not counted per session.
      await heapPer(server, 10, 15_000);
      const small = await heapPer(server, 20, 15_000);
      return [
        outcome(
          '20 initializes with 3.5 MB capabilities',
          big.admitted === 0 && big.message.includes('maxClientCapabilitiesHeldBytes') && big.per <= 100_000,
          `${big.admitted} of 20 admitted, heap ${mb(big.before)} → ${mb(big.after)} (${(big.per / 1e3).toFixed(0)} kB each); refusal ${big.message === '' ? 'none' : `"${big.message.slice(0, 120)}"`} (limit: all refused naming maxClientCapabilitiesHeldBytes, ≤ 100 kB each)`,
        ),
        outcome(
          '20 sessions with 15 kB capabilities (under the limit, after 10 to warm up; 30 of the per-client 32)',
          small.admitted === 20 && small.per <= 100_000,
          `${small.admitted} of 20 admitted, ${(small.per / 1e3).toFixed(0)} kB heap each (limit: all admitted, ≤ 100 kB each)`,
        ),
      ];
    },
  },
  {
    name: 'Redis bytes of legacy sessions on a fleet',
    timeoutMs: 40_000,
    options: ['maxLegacySessions (fleet-wide)', 'legacySessionBudgetHeldBytes', 'maxClientCapabilitiesHeldBytes'],
    async run(scope) {
      const redis = await scope.redis();
      const members = await Promise.all(
        ['a', 'b'].map((id) =>
          scope.server({ redis: { url: redis.url, instanceId: id }, http: { maxLegacySessions: 20 } }),
        ),
      );
      const before = await redis.info('used_memory');
      let admitted = 0;
      for (let index = 0; index < 60; index += 1) {
        const { sessionId } = await rawSession(members[index % 2]!.url, paddedCapabilities(1_000_000), spread(index));
        if (sessionId !== undefined) admitted += 1;
      }
      // Under the capabilities limit: the count cap must hold fleet-wide.
      let small = 0;
      for (let index = 0; index < 60; index += 1) {
        const { sessionId } = await rawSession(members[index % 2]!.url, paddedCapabilities(10_000), spread(index));
        if (sessionId !== undefined) small += 1;
      }
      const after = await redis.info('used_memory');
      const growth = after - before;
      return [
        outcome(
          'fleet of 2, maxLegacySessions 20: 60 × 1 MB then 60 × 10 kB sessions',
          admitted + small <= 20 && growth <= 20 * 65_536 + 2_000_000,
          `${admitted} + ${small} admitted, Redis ${mb(before)} → ${mb(after)} (limit: ≤ 20 fleet-wide, growth ≤ ${mb(20 * 65_536 + 2_000_000)})`,
        ),
      ];
    },
  },
  {
    name: 'silent GET streams past the idle limit',
    timeoutMs: 30_000,
    options: ['legacySessionIdleMs (short, 1500)'],
    async run(scope) {
      const server = await scope.server({ http: { legacySessionIdleMs: 1_500, maxLegacySessions: 50 } });
      const streams: Array<ReadableStreamDefaultReader<Uint8Array>> = [];
      const aborter = new AbortController();
      scope.defer(async () => aborter.abort());
      for (let index = 0; index < 50; index += 1) {
        const { sessionId } = await rawSession(server.url, { elicitation: { form: {} } }, spread(index));
        if (sessionId === undefined) continue;
        const response = await fetch(server.url, {
          headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
          signal: aborter.signal,
        });
        if (response.body !== null) streams.push(response.body.getReader());
      }
      await sleep(4_000);
      const ended = (await Promise.all(streams.map((stream) => closed(stream, 300)))).filter(Boolean).length;
      const fresh = await rawSession(server.url, {}, '127.0.0.99');
      return [
        outcome(
          '50 silent GET streams, legacySessionIdleMs 1500',
          ended === streams.length && streams.length === 50 && fresh.sessionId !== undefined,
          `${ended} of ${streams.length} closed 4 s later; a new client gets ${fresh.response.status} (limit: all closed, new client 200)`,
        ),
      ];
    },
  },
  {
    name: 'header- and body-trickling sockets',
    timeoutMs: 30_000,
    options: ['headersTimeoutMs (short, 1000)', 'requestTimeoutMs (short, 2000)', 'maxConnections (1024)'],
    async run(scope) {
      const server = await scope.server({ http: { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 } });
      const fdsBefore = server.fds();
      const headers = Array.from({ length: 300 }, () => trickle(server.port, 'headers'));
      const bodies = Array.from({ length: 50 }, () => trickle(server.port, 'body'));
      scope.defer(async () => [...headers, ...bodies].forEach((socket) => socket.stop()));
      await sleep(1_500);
      const fdsPeak = server.fds();
      await sleep(4_500);
      const openHeaders = headers.filter((socket) => socket.open()).length;
      const openBodies = bodies.filter((socket) => socket.open()).length;
      const fdsAfter = server.fds();
      return [
        outcome(
          '300 header-trickling sockets, headersTimeoutMs 1000',
          openHeaders === 0,
          `${openHeaders} of 300 still open after 6 s; fds ${fdsBefore} → ${fdsPeak} → ${fdsAfter} (limit 0 open)`,
        ),
        outcome(
          '50 body-trickling sockets, requestTimeoutMs 2000',
          openBodies === 0,
          `${openBodies} of 50 still open after 6 s (limit 0 open)`,
        ),
      ];
    },
  },
  {
    name: 'one client, many sessions; malformed requests',
    timeoutMs: 40_000,
    options: ['maxLegacySessionsPerClient (32)', '(answers) malformed Host → 400'],
    async run(scope) {
      const server = await scope.server({});
      const results: Outcome[] = [];
      let admitted = 0;
      let refusal = 0;
      for (let index = 0; index < 40; index += 1) {
        const { sessionId, response } = await rawSession(server.url, {});
        if (sessionId !== undefined) admitted += 1;
        else refusal = response.status;
      }
      const other = await rawSession(server.url, {}, '127.0.0.2');
      results.push(
        outcome(
          '40 initialize-only sessions from one address',
          admitted <= 32 && other.sessionId !== undefined,
          `${admitted} of 40 admitted${refusal === 0 ? '' : ` (then ${refusal})`}; another address gets ${other.response.status} (limit: ≤ 32, others admitted)`,
        ),
      );
      const hosts = [`localhost:${server.port}@evil.example`, 'a b', 'localhost:99999', '[::1'];
      const statuses = await Promise.all(
        hosts.map((host) =>
          rawSocket(
            server.port,
            `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
          ),
        ),
      );
      results.push(
        outcome(
          'malformed Host headers',
          statuses.every((status) => status === 400),
          `${hosts.map((host, index) => `${JSON.stringify(host)} → ${statuses[index]}`).join(', ')} (limit: 400 each)`,
        ),
      );
      // A few malformed requests that already hold: none may cost a 5xx or the process.
      const bad: Array<[string, Parameters<typeof raw>[1]]> = [
        ['broken JSON', { body: '{"jsonrpc":"2.0",' }],
        ['JSON array of junk', { body: '[1,2,3]' }],
        ['wrong content type', { body: initialize({}), headers: { 'content-type': 'text/plain' } }],
        ['no Accept', { body: initialize({}), headers: { accept: '' } }],
        ['body over 4 MiB', { body: Buffer.alloc(4_300_000, 32) }],
        [
          'unknown session',
          { body: '{"jsonrpc":"2.0","id":1,"method":"ping"}', headers: { 'mcp-session-id': 'nope' } },
        ],
        ['GET without session', { method: 'GET', headers: { accept: 'text/event-stream' } }],
        ['DELETE without session', { method: 'DELETE' }],
        ['PUT', { method: 'PUT', body: '{}' }],
        ['deep nesting', { body: `${'['.repeat(5_000)}${']'.repeat(5_000)}` }],
        ['initialize with null params', { body: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":null}' }],
        [
          'modern header, no envelope',
          { body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', headers: { 'mcp-protocol-version': '2026-07-28' } },
        ],
      ];
      const served = await Promise.all(
        bad.map(([, init]) =>
          raw(server.url, { ...init, timeoutMs: 5_000 }).then(
            (r) => r.status,
            () => 0,
          ),
        ),
      );
      const fives = bad.filter((_, index) => served[index]! >= 500 || served[index] === 0).map(([name]) => name);
      const alive = (await raw(server.url, { body: initialize({}), localAddress: '127.0.0.3' })).status === 200;
      results.push(
        outcome(
          `${bad.length} malformed HTTP requests`,
          fives.length === 0 && alive,
          `${bad.length - fives.length} of ${bad.length} answered 4xx${fives.length > 0 ? ` (5xx or none: ${fives.join(', ')})` : ''}; server ${alive ? 'alive' : 'dead'} (limit: all 4xx, alive)`,
        ),
      );
      return results;
    },
  },
];
