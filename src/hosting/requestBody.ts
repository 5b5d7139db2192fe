/** Reading a POST of the dual-era handler: its body once, bounded, as JSON; its path. */
import { readRequestBody } from '@modelcontextprotocol/server';

import { jsonRpcErrorResponse } from './jsonRpcError.js';

/** A POST body read as JSON, or the response refusing it. */
export type JsonBody = { ok: true; body: unknown } | { ok: false; response: Response };

/** Reads and parses a POST body once; a body too large or not JSON yields the 413 / 400 answer instead. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  let text: string;
  try {
    const read = await readRequestBody(request, maxBytes);
    if (read.tooLarge) {
      const message = `Payload Too Large: the request body exceeds ${maxBytes} bytes`;
      return { ok: false, response: jsonRpcErrorResponse(413, -32000, message) };
    }
    text = read.text;
  } catch {
    return {
      ok: false,
      response: jsonRpcErrorResponse(400, -32700, 'Parse error: the request body could not be read'),
    };
  }
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, response: jsonRpcErrorResponse(400, -32700, 'Parse error: Invalid JSON') };
  }
}

/** The path of a `Request`'s URL, which the `Request` has already parsed and serialized (so no second parse). */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const end = url.slice(start).search(/[?#]/);
  return end === -1 ? url.slice(start) : url.slice(start, start + end);
}
