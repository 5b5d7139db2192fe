/** The first checks of every registration (tool, prompt, resource), with one wording for all three. */
import { McpResolveError } from '../errors.js';

const TITLES = { tool: 'Tool', prompt: 'Prompt', resource: 'Resource' } as const;

/** Throws unless `name` is a non-empty string and `callback` (the body, or a read) is a function. */
export function assertRegistration(
  kind: keyof typeof TITLES,
  name: unknown,
  callback: unknown,
  role: 'body' | 'read callback',
): asserts name is string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new McpResolveError(
      'invalid_declaration',
      `${kind}(): the name must be a non-empty string (got ${JSON.stringify(name)}).`,
      { data: { kind, field: 'name' } },
    );
  }
  if (typeof callback !== 'function') {
    throw new McpResolveError(
      'invalid_declaration',
      `${TITLES[kind]} '${name}': the ${role} must be a function (got ${typeof callback}).`,
      { data: { kind, name, field: role === 'body' ? 'body' : 'read' } },
    );
  }
}
