/**
 * The `mcp-resolve ask` loop: list the server's tools, let the person pick one and type its
 * arguments, call it, show the result; every question the server asks meanwhile is answered at the
 * same terminal.
 */
import type { CallToolResult, Client, Tool } from '@modelcontextprotocol/client';

import { EndOfInput, fillForm } from './form.js';
import type { FormSchema } from './form.js';
import type { Terminal } from './terminal.js';

type Property = Record<string, unknown>;

const FLAT_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/** Whether the form renderer can ask `property` as one field (a primitive, an enum, a multi-select). */
function isFlat(property: Property): boolean {
  if (Array.isArray(property.enum) || Array.isArray(property.oneOf) || Array.isArray(property.anyOf)) return true;
  if (typeof property.type === 'string' && FLAT_TYPES.has(property.type)) return true;
  const items = property.items as Property | undefined;
  return property.type === 'array' && items !== undefined && (Array.isArray(items.enum) || Array.isArray(items.anyOf));
}

/** A tool's arguments: a form when its input is flat, one JSON line otherwise. */
async function argumentsFor(tool: Tool, terminal: Terminal): Promise<Record<string, unknown>> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Property>;
  if (Object.values(properties).every(isFlat)) {
    terminal.say(`Arguments of ${tool.name}:`);
    return fillForm({ ...tool.inputSchema, properties } as FormSchema, terminal);
  }
  for (;;) {
    const line = await terminal.ask(`Arguments of ${tool.name} as a JSON object > `);
    if (line === undefined) throw new EndOfInput();
    try {
      const value: unknown = JSON.parse(line === '' ? '{}' : line);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // Reported below, like a value that is not an object.
    }
    terminal.say('  type a JSON object, e.g. {"order_id": "ORD-1"}');
  }
}

/** The result as the person reads it: its text, its structured content, and whether it failed. */
export function describeResult(result: CallToolResult): string {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
  const lines = [result.isError === true ? `error: ${text}` : `result: ${text}`];
  if (result.structuredContent !== undefined) lines.push(`structured: ${JSON.stringify(result.structuredContent)}`);
  return lines.join('\n');
}

function pickedTool(tools: readonly Tool[], line: string): Tool | undefined {
  const index = Number(line);
  return Number.isInteger(index) ? tools[index - 1] : tools.find((tool) => tool.name === line);
}

/** Runs tool calls at `terminal` until the person leaves an empty choice or input ends. */
export async function runAskSession(client: Client, terminal: Terminal): Promise<void> {
  const { tools } = await client.listTools();
  if (tools.length === 0) return terminal.say('The server lists no tools.');
  terminal.say('Tools:');
  for (const [index, tool] of tools.entries()) {
    const about = tool.description?.split('\n')[0];
    terminal.say(`  ${index + 1}) ${tool.name}${about !== undefined && about !== '' ? ` - ${about}` : ''}`);
  }
  try {
    for (;;) {
      const line = await terminal.ask('\nTool (number or name, empty to quit) > ');
      if (line === undefined || line === '') break;
      const tool = pickedTool(tools, line);
      if (tool === undefined) {
        terminal.say(`  no tool ${JSON.stringify(line)}: type a number from 1 to ${tools.length}, or a name`);
        continue;
      }
      const result = await client.callTool({ name: tool.name, arguments: await argumentsFor(tool, terminal) });
      terminal.say(describeResult(result));
    }
  } catch (error) {
    if (!(error instanceof EndOfInput)) throw error;
  }
  terminal.say('bye');
}
