/**
 * Library tools and SDK-registered tools on one server instance.
 *
 * Library tools are answered by the library's own `tools/call` handler, so its protocol errors
 * (the frozen `-32602`, the `-32021` capability gate) stay top-level JSON-RPC errors — the SDK's
 * `McpServer` turns every error a tool callback throws into an `isError` result. Tools a `setup()`
 * registers with the SDK's own `registerTool` keep the SDK's whole handling (validation,
 * enable/disable, output checks, projection): the `tools/list` and `tools/call` handlers
 * `McpServer` installs for them are kept and called for every tool the library does not own.
 *
 * `McpServer` installs those handlers only through `server.setRequestHandler`, and the SDK has no
 * public getter for an installed handler, so they are kept as they are installed, while `setup()`
 * runs; a server without `setup()` callbacks swaps nothing. The SDK's HTTP entry validates SEP-2243
 * `Mcp-Param-*` headers against `McpServer.toolInputSchemaJson(name)`; {@link ResolvingMcpServer}
 * answers it for library tools too, so header validation applies to them exactly as to SDK tools.
 * Neither can go through the SDK 2.4 public API yet: a tool callback's protocol error becomes an
 * `isError` result there; the upstream changes that would remove both are in the contributor notes.
 */
import type {
  CallToolRequest,
  CallToolResult,
  Implementation,
  InputRequiredResult,
  ListToolsRequest,
  ListToolsResult,
  McpServerOptions,
  RequestId,
  Server,
  ServerContext,
  Tool,
  Transport,
} from '@modelcontextprotocol/server';
import { McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import { RenumberingTransport } from '../renumberingTransport.js';
import { captureRequestHandlers } from '../sdkSeams/requestHandlers.js';
import type { InboundMessages } from '../telemetry/inbound.js';

/** The SDK's own tool handlers, as `McpServer` installs them for tools registered with `registerTool`. */
interface SdkToolHandlers {
  list?: (request: ListToolsRequest, ctx: ServerContext) => ListToolsResult | Promise<ListToolsResult>;
  call?: (
    request: CallToolRequest,
    ctx: ServerContext,
  ) => CallToolResult | InputRequiredResult | Promise<CallToolResult | InputRequiredResult>;
}

/** What the library needs to know about its own tools on an instance. */
export interface LibraryTools {
  /**
   * The `tools/list` entries of the library's tools as the server has them now, in registration
   * order: read on each `tools/list`, so an instance that outlives a registration (a legacy
   * session's) lists the tool it announced with `notifications/tools/list_changed`.
   */
  readonly definitions: readonly Tool[];
  /**
   * How the client of `ctx` sees each entry, library and SDK-registered tools alike, when it differs
   * per client (a channel's app, a channel's own tool); `undefined`: not listed. Absent: as defined.
   */
  listing?(ctx: ServerContext): (tool: Tool) => Tool | undefined;
  /** Serves one `tools/call` when it names a library tool; `undefined` when it does not. */
  call(
    request: CallToolRequest,
    ctx: ServerContext,
  ): CallToolResult | InputRequiredResult | Promise<CallToolResult | InputRequiredResult> | undefined;
}

/** An `McpServer` whose SEP-2243 header validation also covers the library's tools. */
export class ResolvingMcpServer extends McpServer {
  /** The observer of every inbound message, when the server has `telemetry` (attached to each transport connected). */
  readonly inbound: InboundMessages | undefined;
  /** The request ids of the connection, when they are not its clients' (connected to the modern lane's `ExchangeMux`). */
  #ids: RenumberingTransport | undefined;

  /** `observe`: makes the observer of the instance's inbound messages, when the server has `telemetry`. */
  constructor(
    info: Implementation,
    options: McpServerOptions,
    private readonly libraryInputs: ReadonlyMap<string, Record<string, unknown>>,
    observe?: (server: Server) => InboundMessages,
  ) {
    super(info, options);
    this.inbound = observe?.(this.server);
  }

  /** The input JSON Schema the HTTP entry validates `Mcp-Param-*` headers against: the library's tools first. */
  override toolInputSchemaJson(name: string): Record<string, unknown> | undefined {
    return this.libraryInputs.get(name) ?? super.toolInputSchemaJson(name);
  }

  /**
   * Connects to `transport`, recording how its request ids map to its clients' when it renumbers
   * them (the modern lane's `ExchangeMux`), with every inbound message observed when the server
   * has `telemetry`.
   */
  override async connect(transport: Transport): Promise<void> {
    const ids = transport instanceof RenumberingTransport ? transport : undefined;
    this.#ids = ids;
    this.inbound?.attach(transport, ids);
    await super.connect(transport);
  }

  /** The client's id of the request this instance knows as `id` (they differ on the modern lane's connection). */
  clientIdOf(id: RequestId): RequestId {
    return this.#ids === undefined ? id : this.#ids.clientIdOf(id);
  }

  /** Whether a tool named `name` was registered with the SDK's own `registerTool`. */
  hasSdkTool(name: string): boolean {
    return super.toolInputSchemaJson(name) !== undefined;
  }
}

/**
 * Runs the `setup()` callbacks on `mcp`, keeping the tool handlers the SDK installs meanwhile, then
 * installs the instance's `tools/list` and `tools/call`: library tools first, then SDK-registered
 * ones. A name registered both ways is refused. With no `setup()` callback (the common case) no SDK
 * tool can exist, and nothing is swapped. The tools capability says `listChanged`: a tool registered
 * while the server is served is announced with the hosting's `notify.toolsChanged()`.
 */
export function serveTools(
  mcp: ResolvingMcpServer,
  library: LibraryTools,
  setups: ReadonlyArray<(mcp: McpServer) => void>,
): void {
  const sdk: SdkToolHandlers = setups.length === 0 ? {} : runSetups(mcp, library, setups);
  const server = mcp.server;
  server.registerCapabilities({ tools: { listChanged: true } });
  server.setRequestHandler('tools/list', async (request, ctx) => {
    const shown = library.listing?.(ctx);
    const seen = (tools: readonly Tool[]): Tool[] =>
      shown === undefined ? [...tools] : tools.flatMap((tool) => shown(tool) ?? []);
    if (sdk.list === undefined) return { tools: seen(library.definitions) };
    const listed = await sdk.list(request, ctx);
    return { ...listed, tools: seen([...library.definitions, ...listed.tools]) };
  });
  server.setRequestHandler('tools/call', (request, ctx) => {
    const served = library.call(request, ctx);
    if (served !== undefined) return served;
    if (sdk.call !== undefined) return sdk.call(request, ctx);
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
  });
}

/** The methods whose handlers `McpServer` installs for tools registered with `registerTool`. */
const SDK_TOOL_METHODS: ReadonlySet<string> = new Set(['tools/list', 'tools/call']);

/**
 * Runs `setups` on `mcp` and returns the `tools/list` and `tools/call` handlers `McpServer` installed
 * meanwhile for tools registered with `registerTool` (kept by the SDK seam `captureRequestHandlers`;
 * every other method is installed as usual). A library tool's name registered with `registerTool`
 * too is refused.
 */
function runSetups(
  mcp: ResolvingMcpServer,
  library: LibraryTools,
  setups: ReadonlyArray<(mcp: McpServer) => void>,
): SdkToolHandlers {
  const kept = captureRequestHandlers(mcp.server, SDK_TOOL_METHODS, () => {
    for (const configure of setups) configure(mcp);
  });
  const sdk: SdkToolHandlers = {
    list: kept.get('tools/list') as SdkToolHandlers['list'],
    call: kept.get('tools/call') as SdkToolHandlers['call'],
  };
  for (const definition of library.definitions) {
    if (mcp.hasSdkTool(definition.name)) {
      throw new McpResolveError(
        'invalid_declaration',
        `Tool '${definition.name}' is registered both with .tool() and with registerTool() in setup(): rename one of them.`,
        { data: { kind: 'tool', name: definition.name } },
      );
    }
  }
  return sdk;
}
