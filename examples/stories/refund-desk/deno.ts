/**
 * The refund desk on Deno: the runtime-neutral fetch handler under `Deno.serve`, both eras on one
 * URL (Deno keeps legacy sessions in this one process, so 2025-11-25 pushes work).
 *
 *   npm run runtimes   # bundles this file and runs it with `deno run --allow-net --allow-env`
 */
import { createDualEraHandler } from 'mcp-resolve';

import { createRefundDesk } from './desk.js';

/** The part of Deno's global this file uses (the project type-checks without Deno's own types). */
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

const handler = createDualEraHandler(createRefundDesk());
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 0),
    onListen: ({ port }) => console.error(`refund-desk listening on http://127.0.0.1:${port}/mcp`),
  },
  (request) => handler.fetch(request),
);
