/**
 * How the server gets the `TaskHost` that runs its tools declared with `task`, knowing only the
 * interface (`round/taskHost.ts`): the package entry composing the public `McpResolveServer`
 * provides the factory once (the task runner of `tasks/`, in the module the root entry exports it from), and the server
 * calls it when a tool first declares `task`. `server/` never imports an implementation from `tasks/`.
 */
import { McpResolveError } from '../errors.js';
import type { TaskHost } from '../round/taskHost.js';
import type { CompiledTool } from '../round/tool.js';
import type { TaskOptions } from '../tasks/records.js';

/** Builds the task host of one server: its tools (read when a task runs) and its `tasks` option, observed. */
export type TaskHostFactory = (tools: ReadonlyMap<string, CompiledTool>, options: TaskOptions | undefined) => TaskHost;

let provided: TaskHostFactory | undefined;

/**
 * Sets the factory every server calls for its task host and returns the one it replaces (the
 * package entry calls it once, at load; a test may swap in its own and put the previous one back).
 */
export function provideTaskHosts(factory: TaskHostFactory | undefined): TaskHostFactory | undefined {
  const previous = provided;
  provided = factory;
  return previous;
}

/** The task host of a server whose tool `name` is the first to declare `task`. */
export function taskHostFor(
  name: string,
  tools: ReadonlyMap<string, CompiledTool>,
  options: TaskOptions | undefined,
): TaskHost {
  if (provided === undefined) {
    throw new McpResolveError(
      'invalid_declaration',
      `Tool '${name}' declares task, but no task host is provided: import McpResolveServer from 'mcp-resolve'.`,
      { data: { kind: 'tool', name, field: 'task' } },
    );
  }
  return provided(tools, options);
}
