/**
 * A missing optional peer costs one line naming the install to run, not Node's `Cannot find
 * package`: the built package is installed into a temporary `node_modules` with every dependency
 * but the one peer (linked from this checkout), and a child process uses the entry that needs it.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const installs: string[] = [];

/** A directory whose `node_modules` holds the built package and every dependency but `missing`. */
function installWithout(missing: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-resolve-peers-'));
  installs.push(dir);
  const own = join(dir, 'node_modules', 'mcp-resolve');
  mkdirSync(own, { recursive: true });
  // Copied, not linked: a link would resolve the package's imports from this checkout's node_modules.
  cpSync(join(root, 'dist'), join(own, 'dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(own, 'package.json'));
  for (const name of [...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]) {
    if (name === missing) continue;
    const link = join(dir, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), link, 'dir');
  }
  return dir;
}

/** Runs an ES module script in `dir`; what it printed (it prints the error message it expects). */
function run(dir: string, script: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  }).trim();
}

/** A script that prints the message and code an expression's rejection carries (or "resolved"). */
function rejection(setup: string, expression: string): string {
  return `${setup}
try { await (${expression}); console.log('resolved'); }
catch (error) { console.log(error.code + ': ' + error.message); }`;
}

afterAll(() => {
  for (const dir of installs) rmSync(dir, { recursive: true, force: true });
});

describe('a missing optional peer', () => {
  if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first');

  it('openid-client: a page with answerPage.signIn answers 503 and logs its install; the root entry never loads it', () => {
    const dir = installWithout('openid-client');
    const script = [
      "const { McpResolveServer, elicit, resolver } = await import('mcp-resolve');",
      "const { connectInProcess } = await import('mcp-resolve/testing');",
      "const { z } = await import('zod');",
      'const logged = []; console.error = (line) => logged.push(line);',
      "const ask = resolver({ name: 'ask' }, () => elicit('Go?', z.object({ go: z.boolean() })));",
      "const signIn = { issuer: 'https://auth.example.com', clientId: 'pages' };",
      "const server = new McpResolveServer({ name: 't', version: '1' }, { answerPage: { signIn } })",
      "  .tool('go', { input: {}, resolve: { ask } }, () => 'done');",
      "const authInfo = { token: 't', clientId: 'app', scopes: [], extra: { iss: signIn.issuer, sub: 'ada' } };",
      "const { client } = await connectInProcess(server, { era: 'modern', capabilities: {}, authInfo });",
      "const result = await client.callTool({ name: 'go', arguments: {} });",
      'const link = /https?:\\/\\/\\S+/.exec(result.content[0].text)[0];',
      'const page = await server.httpRoutes[0].serve(new Request(link));',
      "console.log(page.status + ' ' + logged.join(' ').replace(/\\[ref \\w+\\]/, '[ref]'));",
      'process.exit(0);',
    ].join('\n');
    expect(run(dir, script)).toBe(
      '503 mcp-resolve: an answer page could not be served: answer page failure [ref]: answerPage.signIn needs the peer dependency openid-client: npm install openid-client',
    );
  });

  it('redis: mcp-resolve/redis imports, and connectRedis() rejects naming `npm install redis`', () => {
    const dir = installWithout('redis');
    const out = run(
      dir,
      rejection("const { connectRedis } = await import('mcp-resolve/redis');", "connectRedis('redis://127.0.0.1:1')"),
    );
    expect(out).toBe('invalid_usage: connectRedis() needs the peer dependency redis: npm install redis');
  });

  it('@modelcontextprotocol/ext-apps is no peer: the question app is built into the package', () => {
    const dir = installWithout('@modelcontextprotocol/ext-apps');
    const setup = [
      "const { McpResolveServer } = await import('mcp-resolve');",
      "const { connectInProcess } = await import('mcp-resolve/testing');",
      "const server = new McpResolveServer({ name: 't', version: '1' }, { apps: {} });",
      "const { client } = await connectInProcess(server.createServer, { era: 'legacy', capabilities: {} });",
    ].join('\n');
    const read =
      "client.readResource({ uri: 'ui://mcp-resolve/question' }).then((r) => console.log(r.contents[0].text.slice(0, 15)))";
    expect(run(dir, rejection(setup, read))).toBe('<!doctype html>\nresolved');
  });

  it('@opentelemetry/api: importing mcp-resolve/otel fails naming its install', () => {
    const dir = installWithout('@opentelemetry/api');
    expect(run(dir, rejection('', "import('mcp-resolve/otel')"))).toBe(
      'invalid_usage: mcp-resolve/otel needs the peer dependency @opentelemetry/api: npm install @opentelemetry/api',
    );
    // The root entry never needs it.
    expect(run(dir, rejection('', "import('mcp-resolve')"))).toBe('resolved');
  });

  it('@modelcontextprotocol/client: importing mcp-resolve/testing fails naming its install', () => {
    const dir = installWithout('@modelcontextprotocol/client');
    expect(run(dir, rejection('', "import('mcp-resolve/testing')"))).toBe(
      'invalid_usage: mcp-resolve/testing needs the peer dependency @modelcontextprotocol/client: ' +
        'npm install @modelcontextprotocol/client',
    );
  });

  it('@modelcontextprotocol/node: serveHttp() rejects naming its install', () => {
    const dir = installWithout('@modelcontextprotocol/node');
    const setup =
      "const { McpResolveServer } = await import('mcp-resolve'); const { serveHttp } = await import('mcp-resolve/node');";
    expect(run(dir, rejection(setup, "serveHttp(new McpResolveServer({ name: 'x', version: '1.0.0' }))"))).toBe(
      'invalid_usage: serveHttp() needs the peer dependency @modelcontextprotocol/node: npm install @modelcontextprotocol/node',
    );
  });

  it('jose: serveHttp() with oauth rejects naming its install; without oauth it never loads', () => {
    const dir = installWithout('jose');
    const setup =
      "const { McpResolveServer } = await import('mcp-resolve'); const { serveHttp } = await import('mcp-resolve/node');" +
      " const desk = new McpResolveServer({ name: 'x', version: '1.0.0' });";
    expect(run(dir, rejection(setup, "serveHttp(desk, { oauth: { issuer: 'https://auth.example.com' } })"))).toBe(
      'invalid_usage: serveHttp() with oauth needs the peer dependency jose: npm install jose',
    );
    expect(run(dir, rejection(setup, 'serveHttp(desk).then((handle) => handle.close())'))).toBe('resolved');
  });
});
