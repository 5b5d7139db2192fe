/**
 * SDK seam: the request handlers an SDK server installs while some code
 * runs, kept instead of installed. Relies on `McpServer` installing its `tools/list` and
 * `tools/call` handlers through `server.setRequestHandler(method, …, handler)`, handler last, while
 * `registerTool` runs (SDK 2.4); the SDK has no public getter for an installed handler. Every
 * run-time patch of the SDK lives in this folder, each pinned by a test on a plain `McpServer`.
 */
import type { Server } from '@modelcontextprotocol/server';

/**
 * Runs `run` with `server.setRequestHandler` swapped, on the instance only, for one that keeps the
 * handler of each method in `methods` (the last one installed) and installs every other method as
 * usual; returns the kept handlers by method. The swap is undone when `run` returns or throws.
 */
export function captureRequestHandlers(
  server: Server,
  methods: ReadonlySet<string>,
  run: () => void,
): ReadonlyMap<string, unknown> {
  const kept = new Map<string, unknown>();
  const install = server.setRequestHandler.bind(server);
  Object.defineProperty(server, 'setRequestHandler', {
    configurable: true,
    value: (method: string, ...rest: unknown[]) => {
      if (methods.has(method)) kept.set(method, rest.at(-1));
      else Reflect.apply(install, undefined, [method, ...rest]);
    },
  });
  try {
    run();
  } finally {
    Reflect.deleteProperty(server, 'setRequestHandler');
  }
  return kept;
}
