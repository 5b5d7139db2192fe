/** JSON from the authorization server, bounded in time and bytes (a slow or huge answer is refused). */

/** The largest metadata, key set or introspection answer read, in bytes. */
export const MAX_AUTHORIZATION_SERVER_REPLY_BYTES = 65_536;

/** Fetches `url` and parses its JSON body; rejects after `timeoutMs`, on a non-2xx status or past the byte limit. */
export async function fetchJson(url: string, init: RequestInit, timeoutMs: number): Promise<unknown> {
  // A redirect is not followed (it answers 3xx, refused below): workerd has no `redirect: 'error'`.
  const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${url} answered HTTP ${response.status}`);
  }
  return JSON.parse(await boundedText(response, url));
}

async function boundedText(response: Response, url: string): Promise<string> {
  const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_AUTHORIZATION_SERVER_REPLY_BYTES) {
      await reader.cancel();
      throw new Error(`${url} answered more than ${MAX_AUTHORIZATION_SERVER_REPLY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
