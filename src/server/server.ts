/**
 * `McpResolveServer`: declare tools once, serve them on both eras. Definitions (schemas, plans,
 * the `tools/list` payload) are built once at registration; `createServer()` makes a fresh SDK
 * instance per connection or per HTTP request cheaply, and every instance shares one sealer.
 */
import type { Implementation, ServerContext } from '@modelcontextprotocol/server';
import { McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import type { HttpServerHandle, ServeHttpOptions, ServeStdioOptions, StdioServerHandle } from '../serve/index.js';
import { serveHttp, serveStdio } from '../serve/index.js';
import type { SealingOptions, RequestStateSealer } from '../state/index.js';
import { createSealer, principalFrom } from '../state/index.js';
import type { CallServices } from './call.js';
import { callTool } from './call.js';
import type {
  CheckedResolve,
  CompiledTool,
  InputValues,
  ResolveShape,
  ToolBody,
  ToolDeclaration,
  ToolInput,
} from './tool.js';
import { compileTool } from './tool.js';

/** Options for {@link McpResolveServer}. */
export interface McpResolveServerOptions {
  /** Instructions advertised to clients. */
  readonly instructions?: string;
  /** How `requestState` is sealed: keys, audience, TTL, codec, replay guard. Sealing is always on. */
  readonly requestState?: SealingOptions;
  /** The principal a request acts for; defaults to one derived from the validated auth info. */
  readonly principal?: (ctx: ServerContext) => string | undefined;
  /** How long a legacy push question may wait for the human, in ms (default 10 minutes). */
  readonly legacyQuestionTimeoutMs?: number;
}

const DEFAULT_LEGACY_QUESTION_TIMEOUT_MS = 600_000;

/** An MCP server whose tools can take parameters from resolvers, served on both protocol eras. */
export class McpResolveServer {
  /** The server's name and version, as advertised. */
  readonly info: Implementation;
  private readonly options: McpResolveServerOptions;
  private readonly sealer: RequestStateSealer;
  private readonly tools = new Map<string, CompiledTool>();
  private readonly setups: Array<(server: McpServer) => void> = [];

  constructor(info: Implementation, options: McpResolveServerOptions = {}) {
    this.info = info;
    this.options = options;
    const timeout = options.legacyQuestionTimeoutMs;
    if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
      throw new McpResolveError(
        'invalid_options',
        `legacyQuestionTimeoutMs must be a positive number of milliseconds (got ${String(timeout)}).`,
      );
    }
    this.sealer = createSealer(info.name, options.requestState);
  }

  /**
   * Registers a tool. Throws at once if the resolver graph cannot run (a cycle, an argument the
   * input lacks, a resolved parameter that is also a model argument).
   */
  tool<
    TInput extends ToolInput = Record<never, never>,
    TResolve extends ResolveShape = Record<never, never>,
    TOutput = undefined,
  >(
    name: string,
    declaration: ToolDeclaration<TInput, TResolve, TOutput> & {
      readonly resolve?: CheckedResolve<InputValues<TInput>, TResolve>;
    },
    body: ToolBody<TInput, TResolve, TOutput>,
  ): this {
    if (this.tools.has(name)) {
      throw new McpResolveError('invalid_declaration', `Tool '${name}' is already registered on this server.`);
    }
    this.tools.set(name, compileTool(name, declaration, body));
    return this;
  }

  /** Adds SDK-level configuration (prompts, resources, …) applied to every instance this server creates. */
  setup(configure: (server: McpServer) => void): this {
    this.setups.push(configure);
    return this;
  }

  /** Creates a fresh SDK server instance with this server's tools; the factory hosting calls per connection or request. */
  readonly createServer = (): McpServer => {
    const mcp = new McpServer(this.info, {
      ...(this.options.instructions !== undefined && { instructions: this.options.instructions }),
      capabilities: { tools: {} },
    });
    const services: CallServices = {
      server: mcp.server,
      sealer: this.sealer,
      principal: this.options.principal ?? ((ctx) => principalFrom(ctx.http?.authInfo)),
      legacyQuestionTimeoutMs: this.options.legacyQuestionTimeoutMs ?? DEFAULT_LEGACY_QUESTION_TIMEOUT_MS,
    };
    const definitions = [...this.tools.values()].map((tool) => tool.definition);
    mcp.server.setRequestHandler('tools/list', () => ({ tools: definitions }));
    mcp.server.setRequestHandler('tools/call', (request, ctx) => {
      const tool = this.tools.get(request.params.name);
      if (tool === undefined)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
      return callTool(tool, request, ctx, services);
    });
    for (const configure of this.setups) configure(mcp);
    return mcp;
  };

  /** Serves both eras on this process's stdio (the first message picks the era). */
  serveStdio(options?: ServeStdioOptions): StdioServerHandle {
    return serveStdio(this.createServer, options);
  }

  /** Serves both eras over HTTP on one URL (default `http://127.0.0.1:<port>/mcp`), with DNS-rebinding protection on. */
  serveHttp(options?: ServeHttpOptions): Promise<HttpServerHandle> {
    return serveHttp(this.createServer, options);
  }
}
