/**
 * The interface the server calls to run tools declared with `task`. The task runner (`tasks/`)
 * implements it; the server builds one only when a tool declares `task`, and otherwise knows
 * nothing of tasks.
 */
import type {
  CallToolRequest,
  CallToolResult,
  InputRequiredResult,
  McpServer,
  ServerContext,
} from '@modelcontextprotocol/server';

import type { InstanceServices } from './services.js';
import type { TaskSupport } from './taskDeclaration.js';
import type { CompiledTool } from './tool.js';

/** What the server calls to run the tools declared with `task` (implemented by `tasks/`). */
export interface TaskHost {
  /** The extension's capability key, advertised by every instance that serves a task-capable tool. */
  readonly extension: string;
  /** Serves a `tools/call` of a tool declared with `task`: a task when the request allows one, an ordinary call otherwise. */
  call(
    tool: CompiledTool,
    support: TaskSupport,
    request: CallToolRequest,
    ctx: ServerContext,
    services: InstanceServices,
  ): Promise<CallToolResult | InputRequiredResult>;
  /** Installs the extension's methods (`tasks/get`, `tasks/update`, `tasks/cancel`) on one SDK instance. */
  serve(mcp: McpServer, services: InstanceServices): void;
}
