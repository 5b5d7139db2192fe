/**
 * `mcp-resolve/client`: for MCP clients, not servers. The terminal client UI the `mcp-resolve ask`
 * bin is made of (answer a server's forms and sampling requests at a terminal), and helpers that
 * drive Tasks extension tasks from an SDK client (`taskOf`, `getTask`, `updateTask`, `cancelTask`,
 * `withTaskResults`). Node only (the terminal reads `node:readline`).
 *
 * @packageDocumentation
 */
export { answerInTerminal, fillForm } from '../node/ask/form.js';
export type { FormSchema } from '../node/ask/form.js';
export { sampleInTerminal } from '../node/ask/sample.js';
export { runAskSession } from '../node/ask/session.js';
export { openTerminal } from '../node/ask/terminal.js';
export type { Terminal } from '../node/ask/terminal.js';
export type { DetailedTask, TaskHandle } from '../testing/tasks.js';
export { cancelTask, getTask, taskOf, updateTask } from '../testing/tasks.js';
export { withTaskResults } from '../testing/taskResults.js';
