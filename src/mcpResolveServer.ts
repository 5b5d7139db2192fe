/**
 * The public `McpResolveServer`, composed: the server of `server/` with the task runner of `tasks/`
 * as its `TaskHost`. The server depends on the `TaskHost` interface only; this is the one place
 * that picks the implementation (the package entry exports the server from here).
 */
import { provideTaskHosts } from './server/taskHosts.js';
import { TaskRunner } from './tasks/runner.js';

provideTaskHosts((tools, options) => new TaskRunner(tools, options));

export { McpResolveServer } from './server/server.js';
