/**
 * Raw HTTP helpers for wire-level work (hosting tests, the fleet benchmark and its memory probe):
 * JSON-RPC POSTs to a URL or straight into a fetch handler, legacy session set-up, an SSE reader,
 * a `fetch` whose connections leave from a chosen local address.
 */

import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';

export const ACCEPT = 'application/json, text/event-stream';

/** What a raw call needs: where, and an optional session. */
export interface Target {
  url: URL;
  sessionId?: string;
  /** Extra headers (e.g. `host` for handler-level tests). */
  headers?: Record<string, string>;
  /** Sends the request somewhere else than global fetch (e.g. straight into a handler). */
  fetch?: (request: Request) => Promise<Response>;
}

/** The JSON body of a POST (read from a clone, so the request can still be sent), else `undefined`. */
export async function postedJson(request: Request): Promise<unknown> {
  if (request.method !== 'POST') return undefined;
  return request
    .clone()
    .json()
    .catch(() => undefined);
}

/** Sends one HTTP request to `target`. */
export function send(
  target: Target,
  init: { method: string; body?: unknown; headers?: Record<string, string> },
): Promise<Response> {
  const headers: Record<string, string> = {
    accept: init.method === 'GET' ? 'text/event-stream' : ACCEPT,
    ...(init.body !== undefined && { 'content-type': 'application/json' }),
    ...(target.sessionId !== undefined && { 'mcp-session-id': target.sessionId }),
    ...target.headers,
    ...init.headers,
  };
  const request = new Request(target.url, {
    method: init.method,
    headers,
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  return (target.fetch ?? fetch)(request);
}

/** POSTs one JSON-RPC message. */
export function post(target: Target, body: unknown, headers?: Record<string, string>): Promise<Response> {
  return send(target, { method: 'POST', body, ...(headers !== undefined && { headers }) });
}

/** Opens a legacy session (initialize + initialized) and returns its id. */
export async function openLegacySession(
  target: Target,
  capabilities: object = { elicitation: { form: {} } },
): Promise<string> {
  const response = await post(target, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } },
  });
  if (response.status !== 200) throw new Error(`initialize answered ${response.status}: ${await response.text()}`);
  const sessionId = response.headers.get('mcp-session-id');
  if (sessionId === null) throw new Error('initialize answered without a session id');
  const events = new SseReader(response);
  await events.next();
  await events.cancel();
  const initialized = await post({ ...target, sessionId }, { jsonrpc: '2.0', method: 'notifications/initialized' });
  if (initialized.status !== 202) throw new Error(`initialized answered ${initialized.status}`);
  return sessionId;
}

/** Reads JSON-RPC messages one at a time from an SSE response body. */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';

  constructor(response: Response) {
    if (response.body === null) throw new Error(`expected an SSE body (status ${response.status})`);
    const body: ReadableStream<Uint8Array> = response.body;
    this.reader = body.getReader();
  }

  /** The next `data:` message, parsed; fails after `timeoutMs`. */
  async next(timeoutMs = 3_000): Promise<Record<string, unknown>> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no SSE message within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.read(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether the stream ends (rather than carrying another message) within `timeoutMs`. */
  async ends(timeoutMs = 3_000): Promise<boolean> {
    try {
      await this.next(timeoutMs);
      return false;
    } catch (error) {
      return error instanceof Error && error.message === 'SSE stream ended';
    }
  }

  /** Stops reading and releases the stream. */
  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }

  private async read(): Promise<Record<string, unknown>> {
    for (;;) {
      const boundary = this.buffer.indexOf('\n\n');
      if (boundary >= 0) {
        const event = this.buffer.slice(0, boundary);
        this.buffer = this.buffer.slice(boundary + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (data !== '') return JSON.parse(data) as Record<string, unknown>;
        continue;
      }
      const { done, value } = await this.reader.read();
      if (done) throw new Error('SSE stream ended');
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }
}

/** A raw `node:http` request, for headers `fetch` will not let a test forge (Host). */
export function rawRequest(
  url: URL,
  options: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: options.method, headers: options.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.setTimeout(3_000, () => req.destroy(new Error('raw request timed out')));
    req.end(options.body);
  });
}

/**
 * A `fetch` over `node:http` whose connections leave from `localAddress` (`127.0.1.7`: another
 * client on loopback, as a server or a proxy sees it), streaming the response body (SSE included).
 */
export function fetchFrom(
  localAddress: string,
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        new URL(request.url),
        { method: request.method, headers: Object.fromEntries(request.headers), localAddress, signal: request.signal },
        (res) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            for (const one of [value ?? []].flat()) headers.append(name, one);
          const status = res.statusCode ?? 0;
          const stream = Readable.toWeb(res) as ReadableStream<Uint8Array>;
          resolve(new Response(status === 204 || status === 304 ? null : stream, { status, headers }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}

/** Hands each request to `handler` as a server behind a proxy sees it: with a `Host` header (`localhost`). */
export function hosted(handler: { fetch(request: Request): Promise<Response> }) {
  return (request: Request): Promise<Response> => {
    const headers = new Headers(request.headers);
    headers.set('host', 'localhost');
    return handler.fetch(new Request(request, { headers }));
  };
}
