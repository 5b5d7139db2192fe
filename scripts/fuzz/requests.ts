/**
 * What the fuzzer sends: real requests recorded from the official client (a 2026-07-28 call that
 * asks and is answered, a 2025-11-25 session that initializes, lists, calls and is deleted), each
 * mutated by fast-check (a value anywhere in the body replaced, a header replaced or dropped, the
 * method changed), plus requests built for the surfaces a recording does not reach: the app-only
 * tool with any arguments, and the answer page's GET and POST with any form.
 */
import fc from 'fast-check';

/** The 2026-07-28 envelope key of the client's capabilities, and those of a client that renders apps. */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const APPS_ONLY = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

/** One HTTP request, as the fuzzer sends it and as a seed keeps it. */
export interface FuzzRequest {
  readonly method: string;
  /** Path and query, on the server's origin. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What a run knows of the server it fuzzes: recorded requests and live ids. */
export interface Recorded {
  readonly requests: readonly FuzzRequest[];
  /** An open answer page: its id, its link's path, the form token and cookie a browser got for it. */
  readonly page: { readonly id: string; readonly path: string; readonly token: string; readonly cookie: string };
  /** The page id of an open in-chat question (the app-only tool's `page`). */
  readonly appPage: string;
  /** A live 2025-11-25 session id. */
  readonly sessionId: string;
}

/** A JSON value, bounded in size, with the strings an attacker favours. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('', '^(a+)+$', `${'a'.repeat(28)}!`, '__proto__', 'mcpr-stream:x', 'A'.repeat(64), '\u0000', '💸'),
  fc.string({ maxLength: 300 }),
  fc.integer(),
  fc.double(),
);

/** Every leaf path of a JSON value. */
function leaves(json: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(json)) return json.flatMap((item, index) => leaves(item, [...path, index]));
  if (typeof json === 'object' && json !== null)
    return Object.entries(json).flatMap(([key, item]) => leaves(item, [...path, key]));
  return [path];
}

/** `json` with the value at `path` replaced by `replacement` (the root when the path is empty). */
function replaced(json: unknown, path: ReadonlyArray<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(json) ? [...json] : { ...(json as object) }) as Record<string | number, unknown>;
  copy[head!] = replaced(copy[head!], rest, replacement);
  return copy;
}

/** A recorded request with one thing changed. */
function mutated(request: FuzzRequest): fc.Arbitrary<FuzzRequest> {
  const headerNames = Object.keys(request.headers);
  const json = (() => {
    try {
      return request.body === undefined ? undefined : (JSON.parse(request.body) as unknown);
    } catch {
      return undefined;
    }
  })();
  const paths = json === undefined ? [] : leaves(json);
  const header = fc.oneof(
    fc.constantFrom('2026-07-28', '2025-11-25', '1999-01-01', 'mcpr-stream:a:1', 'text/event-stream'),
    fc.string({ maxLength: 200 }),
  );
  return fc.oneof(
    fc.constant(request),
    paths.length === 0
      ? fc.constant(request)
      : fc.tuple(fc.nat(paths.length - 1), value).map(([index, replacement]) => ({
          ...request,
          body: JSON.stringify(replaced(json, paths[index]!, replacement)),
        })),
    fc
      .tuple(fc.constantFrom(...headerNames, 'last-event-id', 'mcp-session-id'), fc.option(header))
      .map(([name, replacement]) => {
        const headers: Record<string, string> = { ...request.headers };
        if (replacement === null) delete headers[name];
        else headers[name] = replacement.replace(/[\r\n]/g, '');
        return { ...request, headers };
      }),
    fc.constantFrom('GET', 'POST', 'DELETE', 'PUT').map((method) => ({
      ...request,
      method,
      ...(method === 'GET' || method === 'DELETE' ? { body: undefined } : {}),
    })),
    fc.string({ maxLength: 2_000 }).map((body) => ({ ...request, method: 'POST', body })),
  );
}

/** A call of the app-only tool with any page, form and extra arguments, on 2026-07-28. */
function answerToolCall(recorded: Recorded): fc.Arbitrary<FuzzRequest> {
  const template = recorded.requests.find((request) => request.body?.includes('"tools/call"'));
  const form = fc
    .dictionary(fc.constantFrom('action', 'field.code', 'field.keep', 'form-token', 'x'), fc.string({ maxLength: 100 }))
    .map((fields) => new URLSearchParams(fields).toString());
  const args = fc.record(
    {
      page: fc.oneof(fc.constant(recorded.appPage), fc.string({ maxLength: 70 })),
      form,
      elicitation: fc.boolean(),
      question: value,
    },
    { requiredKeys: [] },
  );
  const params = (JSON.parse(template?.body ?? '{}') as { params?: { _meta?: Record<string, unknown> } }).params;
  // The recorded call's client shows forms: the tool takes calls only from a client that renders apps.
  const _meta = { ...params?._meta, [CLIENT_CAPABILITIES]: APPS_ONLY };
  return args.map((arguments_) => ({
    method: 'POST',
    path: template?.path ?? '/mcp',
    headers: { ...template?.headers, 'mcp-name': 'mcp_resolve_answer' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { ...params, _meta, name: 'mcp_resolve_answer', arguments: arguments_ },
    }),
  }));
}

/** The answer page: GET or POST, the real page or another id, any form, with or without its token and cookie. */
function pageRequest(recorded: Recorded): fc.Arbitrary<FuzzRequest> {
  const { page } = recorded;
  return fc
    .record({
      method: fc.constantFrom('GET', 'POST', 'POST', 'HEAD'),
      path: fc.oneof(
        fc.constant(page.path),
        fc.string({ maxLength: 40 }).map((id) => page.path.replace(page.id, encodeURIComponent(id))),
      ),
      fields: fc.dictionary(
        fc.constantFrom('action', 'field.keep', 'field.code', 'form-token', 'x'),
        fc.oneof(fc.constant(page.token), fc.constantFrom('accept', 'decline', 'on'), fc.string({ maxLength: 100 })),
      ),
      cookie: fc.oneof(fc.constant(page.cookie), fc.string({ maxLength: 80 })),
      type: fc.constantFrom('application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data'),
    })
    .map(({ method, path, fields, cookie, type }) => ({
      method,
      path,
      headers: { cookie: cookie.replace(/[\r\n;]/g, ''), 'content-type': type },
      ...(method === 'POST' && { body: new URLSearchParams(fields).toString() }),
    }));
}

/** Every request the fuzzer may send. */
export function fuzzRequests(recorded: Recorded): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...recorded.requests).chain(mutated) },
    { weight: 2, arbitrary: answerToolCall(recorded) },
    { weight: 2, arbitrary: pageRequest(recorded) },
  );
}
