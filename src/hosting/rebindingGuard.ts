/**
 * The DNS-rebinding guard of the HTTP hosts: the `Host` header against `allowedHosts`, then the
 * `Origin` header against `allowedOrigins`, through the SDK's own validators. A refusal is reported
 * through `onerror`, and the first refusal of each name is logged on stderr naming the option to set.
 */
import { hostHeaderValidationResponse, originValidationResponse } from '@modelcontextprotocol/server';

/** How many distinct refused names are remembered so each is logged once. */
const LOGGED_NAMES_CAP = 100;

/** Checks one request; a `Response` (403) when it must be refused. */
export type RebindingGuard = (request: Request) => Response | undefined;

/** The one stderr line for a refused `Host` or `Origin`, naming the option that admits it. */
export function refusedNameLine(header: 'Host' | 'Origin', value: string, allowed: readonly string[]): string {
  const option = header === 'Host' ? 'allowedHosts' : 'allowedOrigins';
  const name = hostnameOf(header === 'Host' ? `http://${value}` : value);
  return (
    `mcp-resolve: refused a request with ${header} '${value}' (403): not in ${option} ` +
    `[${allowed.join(', ')}]. If clients reach this server by that name, pass ${option}: ['${name}'] ` +
    `to serveHttp() or createDualEraHandler().`
  );
}

/** The hostname of `url` as the allow-lists spell it (IPv6 in brackets), or `url` itself when it does not parse. */
function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** Builds the guard; `log` receives each refused name's first line. */
export function createRebindingGuard(
  allowedHosts: string[],
  allowedOrigins: string[],
  report: (error: Error) => void,
  log: (line: string) => void = (line) => console.warn(line),
): RebindingGuard {
  const logged = new Set<string>();
  const refuse = (header: 'Host' | 'Origin', value: string, allowed: readonly string[]): void => {
    const line = refusedNameLine(header, value, allowed);
    report(new Error(line));
    if (logged.has(`${header} ${value}`) || logged.size >= LOGGED_NAMES_CAP) return;
    logged.add(`${header} ${value}`);
    log(line);
  };
  return (request) => {
    const host = hostHeaderValidationResponse(request, allowedHosts);
    if (host !== undefined) {
      refuse('Host', request.headers.get('host') ?? '', allowedHosts);
      return host;
    }
    const origin = originValidationResponse(request, allowedOrigins);
    if (origin !== undefined) refuse('Origin', request.headers.get('origin') ?? '', allowedOrigins);
    return origin;
  };
}
