/**
 * The `mcp-resolve` command. `mcp-resolve ask <URL | command [args...]>` connects to any MCP server
 * (Streamable HTTP for a URL, stdio for a command) on either era and lets a person call its tools
 * at the terminal, answering every question it asks: forms, URL links, sampling (the person plays
 * the model) and roots (`--root`, default the current directory).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { connectHttp, connectStdio } from '../../testing/index.js';
import type { ConnectOptions, TestConnection } from '../../testing/index.js';
import type { Era } from '../../context.js';
import { LEGACY_REVISION, MODERN_REVISION } from '../../protocol.js';
import { answerInTerminal } from './form.js';
import { sampleInTerminal } from './sample.js';
import { runAskSession } from './session.js';
import type { Terminal } from './terminal.js';
import { openTerminal } from './terminal.js';

/** The usage text, printed by `--help` and after a usage error. */
export const USAGE = `usage: mcp-resolve ask [--era modern|legacy] [--root DIR]... [--header 'NAME: VALUE']... <URL | command [args...]>

  URL       an MCP endpoint over Streamable HTTP, e.g. http://127.0.0.1:3000/mcp
  command   a stdio MCP server to start, with its arguments, e.g. node server.js
  --era     modern pins 2026-07-28 (the default); legacy negotiates 2025-11-25
  --root    a directory offered as a root (repeatable; default: the current directory)
  --header  an HTTP header sent with every request to the URL (repeatable), e.g.
            --header "Authorization: Bearer $TOKEN"`;

/** What the command line asks for. */
export interface AskCommand {
  readonly era: Era;
  readonly roots: readonly string[];
  /** Headers sent with every HTTP request (`--header`; none for a command). */
  readonly headers: Readonly<Record<string, string>>;
  readonly target: { readonly url: URL } | { readonly command: string; readonly args: readonly string[] };
}

/** Reads `ask`'s arguments (everything after `ask`); throws a usage error naming the problem. */
export function parseAskArgs(argv: readonly string[]): AskCommand {
  let era: Era = 'modern';
  const roots: string[] = [];
  const headers: Record<string, string> = {};
  let at = 0;
  for (; at < argv.length; at++) {
    const arg = argv[at] ?? '';
    if (arg === '--') {
      at++;
      break;
    }
    if (!arg.startsWith('--')) break;
    const value = argv[++at];
    if (value === undefined) throw new Error(`${arg} needs a value`);
    if (arg === '--era' && (value === 'modern' || value === 'legacy')) era = value;
    else if (arg === '--era') throw new Error(`--era must be modern or legacy (got ${JSON.stringify(value)})`);
    else if (arg === '--root') roots.push(value);
    else if (arg === '--header') addHeader(headers, value);
    else throw new Error(`unknown option ${arg}`);
  }
  const [first, ...rest] = argv.slice(at);
  if (first === undefined) throw new Error('name a URL or a command to start');
  const target = /^https?:\/\//.test(first) ? { url: new URL(first) } : { command: first, args: rest };
  if ('command' in target && Object.keys(headers).length > 0) {
    throw new Error('--header applies to a URL only: a stdio server gets no HTTP requests');
  }
  return { era, roots: roots.length > 0 ? roots : ['.'], headers, target };
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Adds `--header`'s `NAME: VALUE` to `headers`; throws a usage error naming what is wrong. */
function addHeader(headers: Record<string, string>, header: string): void {
  const colon = header.indexOf(':');
  const name = colon < 0 ? '' : header.slice(0, colon).trim();
  const value = header.slice(colon + 1).trim();
  if (!HEADER_NAME.test(name) || /[\r\n\0]/.test(value)) {
    // The value is not echoed: it may be a credential.
    throw new Error("--header must read 'NAME: VALUE', such as 'Authorization: Bearer <token>'");
  }
  headers[name.toLowerCase()] = value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function connect(command: AskCommand, terminal: Terminal): Promise<TestConnection> {
  const options: ConnectOptions = {
    era: command.era,
    elicit: (params) => answerInTerminal(params, terminal),
    sample: (params) => sampleInTerminal(params, terminal),
    roots: () => ({ roots: command.roots.map((dir) => ({ uri: pathToFileURL(resolve(dir)).href })) }),
  };
  const { target } = command;
  if ('url' in target) {
    return connectHttp(target.url, { ...options, transportOptions: { requestInit: { headers: command.headers } } });
  }
  return connectStdio(target.command, [...target.args], { ...options, stderr: 'inherit' });
}

/** Runs `mcp-resolve <argv>`; resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === '--help' || verb === '-h' || (verb === 'ask' && (rest[0] === '--help' || rest[0] === '-h'))) {
    console.log(USAGE);
    return 0;
  }
  let command: AskCommand;
  try {
    if (verb !== 'ask') throw new Error(verb === undefined ? 'name a command' : `unknown command ${verb}`);
    command = parseAskArgs(rest);
  } catch (error) {
    console.error(`mcp-resolve: ${messageOf(error)}\n${USAGE}`);
    return 2;
  }
  const terminal = openTerminal(process.stdin, process.stdout);
  const where =
    'url' in command.target ? command.target.url.href : [command.target.command, ...command.target.args].join(' ');
  let connection: TestConnection;
  try {
    connection = await connect(command, terminal);
  } catch (error) {
    terminal.close();
    console.error(`mcp-resolve ask: cannot connect to ${where}: ${messageOf(error)}`);
    return 1;
  }
  const version = command.era === 'modern' ? MODERN_REVISION : LEGACY_REVISION;
  const server = connection.client.getServerVersion();
  terminal.say(`Connected to ${server?.name ?? 'the server'} (${where}, ${version}).`);
  try {
    await runAskSession(connection.client, terminal);
    return 0;
  } finally {
    await connection.close();
    terminal.close();
  }
}
