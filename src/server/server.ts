/**
 * `McpResolveServer`: declare tools once, serve them on both eras. Definitions (schemas, plans, the
 * `tools/list` payload) are built once; `createServer()` makes SDK instances cheaply, sharing one sealer.
 */
import type { Implementation, McpServer, ResourceMetadata, ResourceTemplate, Tool } from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import type { CompiledPrompt, PromptArgs, PromptBody, PromptDeclaration } from '../round/prompt.js';
import { compilePrompt, registerPrompt } from '../round/prompt.js';
import type { CompiledResource, ResourceRead } from '../round/resource.js';
import { compileResource, registerResource } from '../round/resource.js';
import type { InstanceServices } from '../round/services.js';
import { serveToolCall } from '../round/toolCall.js';
import type {
  CheckedResolve,
  CompiledTool,
  InputValues,
  ResolveShape,
  ToolBody,
  ToolDeclaration,
  ToolInput,
} from '../round/tool.js';
import { compileTool } from '../round/tool.js';
import { ResolvingMcpServer, serveTools } from './resolvingMcpServer.js';
import type { TaskHost } from '../round/taskHost.js';
import { TaskRunner } from '../tasks/runner.js';
import { observedTasks, type McpResolveServerOptions } from './options.js';
import { principalOption, roundDefaultsOf, type RoundDefaults } from './roundDefaults.js';
import type { Telemetry } from '../telemetry/hooks.js';
import { InboundMessages } from '../telemetry/inbound.js';
import type { HttpRoute } from '../channels/channel.js';
import type { ServerChannels } from '../serverChannels.js';
import { clientCapabilitiesOf, eraOf } from '../round/requestEra.js';
import { serverChannelsOf } from '../serverChannels.js';
import { instanceReuse, type InstanceReuse } from './instanceReuse.js';

/** `TResolve`, or none while unsettled: a tool without `resolve` leaves it `never` while a wrapper call in the body's
 * place (`journaled(…)`) is checked, which would type the wrapper's `args` as `unknown` instead of from `input`. */
type ResolvedOrNone<TResolve extends ResolveShape> = [TResolve] extends [never] ? Record<never, never> : TResolve;

/** A tool's declaration, its resolvers checked against its input. */
type CheckedDeclaration<TInput extends ToolInput, TResolve extends ResolveShape, TOutput> = ToolDeclaration<
  TInput,
  TResolve,
  TOutput
> & { readonly resolve?: CheckedResolve<InputValues<TInput>, TResolve> };

/** An MCP server whose tools can take parameters from resolvers, served on both protocol eras. */
export class McpResolveServer {
  /** The server's name and version, as advertised. */
  readonly info: Implementation;
  /** The observer passed as the `telemetry` option (hosting reports its legacy session table to it). */
  readonly telemetry: Telemetry | undefined;
  /** The HTTP routes of the server's channels, which HTTP hosting serves beside the MCP endpoint. */
  readonly httpRoutes: readonly HttpRoute[];
  /** Whether HTTP hosting may serve request after request on one instance, and each registration as an event it watches. */
  readonly instanceReuse: InstanceReuse;
  /** Tells the hosting watching `instanceReuse` that instances built before lack a registration. */
  private readonly registered: () => void;
  private readonly options: McpResolveServerOptions;
  private readonly tools = new Map<string, CompiledTool>();
  /** The `tools/list` payload, built once per registration change rather than per request. */
  private toolList: Tool[] | undefined;
  /** Each library tool's input JSON Schema, for the SDK's SEP-2243 header validation; built with `toolList`. */
  private toolInputs: Map<string, Record<string, unknown>> | undefined;
  /** What every instance's rounds share; only the SDK server differs per instance. */
  private readonly roundDefaults: RoundDefaults;
  private readonly prompts = new Map<string, CompiledPrompt>();
  private readonly resources = new Map<string, CompiledResource>();
  private readonly setups: Array<(server: McpServer) => void> = [];
  /** Runs the tools declared with `task` and serves the extension's methods; built with the first such tool. */
  private taskHost: TaskHost | undefined;
  /** The channels the options turn on beyond in-band, with what they add to each instance. */
  private readonly channels: ServerChannels;

  constructor(info: Implementation, options: McpResolveServerOptions = {}) {
    this.info = info;
    this.options = options;
    this.telemetry = options.telemetry;
    const channels = serverChannelsOf('new McpResolveServer()', options, principalOption(options));
    this.channels = channels;
    this.httpRoutes = channels.httpRoutes;
    this.roundDefaults = roundDefaultsOf(info, options, channels.providers);
    const reuse = instanceReuse(this.createServer, () => this.taskHost === undefined && this.setups.length === 0);
    this.instanceReuse = reuse.reuse;
    this.registered = reuse.changed;
  }

  /**
   * Registers a tool. Throws at once if the resolver graph cannot run (a cycle, an argument the
   * input lacks, a resolved parameter that is also a model argument). The declaration types the
   * body's parameters, so a wrapper of `mcp-resolve/mrtr` (`journaled`, `suspending`, `steps`,
   * `withOnce`, `byEra`) types its handler's `args` from `input` without annotations.
   */
  tool<
    TInput extends ToolInput = Record<never, never>,
    TResolve extends ResolveShape = Record<never, never>,
    TOutput = undefined,
  >(
    name: string,
    declaration: CheckedDeclaration<TInput, TResolve, TOutput>,
    body: NoInfer<ToolBody<TInput, ResolvedOrNone<TResolve>, TOutput>>,
  ): this;
  tool(name: string, declaration: ToolDeclaration<ToolInput, ResolveShape, unknown>, body: unknown): this {
    return this.register(name, declaration, body);
  }

  private register(name: string, declaration: ToolDeclaration<ToolInput, ResolveShape, unknown>, body: unknown): this {
    if (this.tools.has(name)) {
      throw new McpResolveError('invalid_declaration', `Tool '${name}' is already registered on this server.`, {
        data: { kind: 'tool', name },
      });
    }
    const tool = compileTool(name, declaration, body);
    this.tools.set(name, tool);
    if (tool.task !== undefined) {
      this.taskHost ??= new TaskRunner(this.tools, observedTasks(this.options.tasks, this.options.telemetry));
    }
    this.toolList = undefined;
    this.toolInputs = undefined;
    this.registered();
    return this;
  }

  /** Registers a prompt; like a tool, it may take parameters from resolvers (hidden from its arguments). */
  prompt<TArgs extends PromptArgs = Record<never, never>, TResolve extends ResolveShape = Record<never, never>>(
    name: string,
    declaration: PromptDeclaration<TArgs, TResolve> & {
      readonly resolve?: CheckedResolve<InputValues<TArgs>, TResolve>;
    },
    body: NoInfer<PromptBody<TArgs, TResolve>>,
  ): this {
    if (this.prompts.has(name)) {
      throw new McpResolveError('invalid_declaration', `Prompt '${name}' is already registered on this server.`, {
        data: { kind: 'prompt', name },
      });
    }
    this.prompts.set(name, compilePrompt(name, declaration, body));
    this.registered();
    return this;
  }

  /** Registers a resource at a fixed URI or a URI template; its reads are covered by sealing. */
  resource(name: string, uri: string | ResourceTemplate, metadata: ResourceMetadata, read: ResourceRead): this {
    if (this.resources.has(name)) {
      throw new McpResolveError('invalid_declaration', `Resource '${name}' is already registered on this server.`, {
        data: { kind: 'resource', name },
      });
    }
    this.resources.set(name, compileResource(name, uri, metadata, read));
    this.registered();
    return this;
  }

  /**
   * Adds raw SDK configuration applied to every instance this server creates. Handlers registered
   * here are the low-level tier: the library does not verify state that reaches them (see
   * `sealRequestState` for the opt-in).
   */
  setup(configure: (server: McpServer) => void): this {
    this.setups.push(configure);
    this.registered();
    return this;
  }

  /**
   * Called by HTTP hosting at start: logs one line (once) when `requestState` is sealed with this
   * process's random key, so a restart or a second instance would lose a question's answers.
   */
  warnIfStateIsLocal(hosting: string): void {
    this.roundDefaults.sealer.warnIfLocal(hosting);
  }

  /**
   * Creates a fresh SDK server instance with this server's tools, for hosting to call per connection
   * or request (HTTP hosting reuses instances for modern requests while `instanceReuse` allows it).
   */
  readonly createServer = (): McpServer => {
    const tasks = this.taskHost;
    const { telemetry } = this.options;
    const mcp = new ResolvingMcpServer(
      this.info,
      {
        ...(this.options.instructions !== undefined && { instructions: this.options.instructions }),
        ...(this.options.inputRequired !== undefined && { inputRequired: this.options.inputRequired }),
        ...(this.roundDefaults.maxToolInputElements !== undefined && {
          maxToolInputElements: this.roundDefaults.maxToolInputElements,
        }),
        ...(tasks !== undefined && { capabilities: { extensions: { [tasks.extension]: {} } } }),
      },
      (this.toolInputs ??= new Map([...this.tools].map(([name, tool]) => [name, tool.definition.inputSchema]))),
      telemetry?.served === undefined
        ? undefined
        : (server) => new InboundMessages((message) => telemetry.served?.(message), server),
    );
    const services: InstanceServices = {
      ...this.roundDefaults,
      server: mcp.server,
      clientIdOf: (id) => mcp.clientIdOf(id),
      inbound: mcp.inbound,
      completeElicitation: (id) => mcp.server.createElicitationCompletionNotifier(id),
    };
    for (const prompt of this.prompts.values()) registerPrompt(mcp, prompt, services);
    for (const resource of this.resources.values()) registerResource(mcp, resource, services);
    tasks?.serve(mcp, services);
    const tools = this.tools;
    const definitions = (): Tool[] => (this.toolList ??= [...tools.values()].map((tool) => tool.definition));
    const { toolListings } = this.channels;
    serveTools(
      mcp,
      {
        get definitions() {
          return definitions();
        },
        ...(toolListings.length > 0 && {
          listing: (ctx) => {
            const declared = clientCapabilitiesOf(ctx, mcp.server, eraOf(ctx));
            return (entry) => {
              const mayAsk = (tools.get(entry.name)?.plan.params.length ?? 0) > 0;
              let listed: Tool | undefined = entry;
              for (const listing of toolListings) listed = listed && listing(listed, mayAsk, declared);
              return listed;
            };
          },
        }),
        call: (request, ctx) => {
          const tool = tools.get(request.params.name);
          if (tool === undefined) return undefined;
          if (tool.task !== undefined && tasks !== undefined)
            return tasks.call(tool, tool.task, request, ctx, services);
          return serveToolCall(tool, request, ctx, services);
        },
      },
      this.channels.setups.length === 0 ? this.setups : [...this.channels.setups, ...this.setups],
    );
    return mcp;
  };
}
