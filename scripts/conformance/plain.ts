/**
 * The fixtures that ask nothing: content types, errors, progress and logging tools, prompts,
 * resources, completion and resource subscriptions. They use the library's ordinary API
 * (`tool`, `prompt`, `resource`), and `setup(mcp => …)` for the raw SDK configuration the
 * library leaves to the SDK (capabilities, legacy resource subscriptions).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { completable, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { McpResolveServer } from 'mcp-resolve';
import { ToolError } from 'mcp-resolve';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
/** An empty 16-bit mono WAV. */
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=';

const pause = (ms: number) => new Promise<void>((wake) => setTimeout(wake, ms));

function registerTools(server: McpResolveServer): McpResolveServer {
  return server
    .tool(
      'test_simple_text',
      { description: 'Returns a simple text block.' },
      () => 'This is a simple text response for testing.',
    )
    .tool('test_image_content', { description: 'Returns an image block (PNG).' }, (): CallToolResult => ({
      content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
    }))
    .tool('test_audio_content', { description: 'Returns an audio block (WAV).' }, (): CallToolResult => ({
      content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }],
    }))
    .tool('test_embedded_resource', { description: 'Returns an embedded text resource.' }, (): CallToolResult => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }))
    .tool(
      'test_multiple_content_types',
      { description: 'Returns text, an image and an embedded resource.' },
      (): CallToolResult => ({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          {
            type: 'resource',
            resource: {
              uri: 'test://mixed-content-resource',
              mimeType: 'application/json',
              text: JSON.stringify({ test: 'data', value: 123 }),
            },
          },
        ],
      }),
    )
    .tool('test_error_handling', { description: 'Always fails: a ToolError becomes an isError result.' }, () => {
      throw new ToolError('This tool intentionally returns an error for testing');
    })
    .tool(
      'test_tool_with_progress',
      { description: 'Reports progress 0, 50, 100 of 100 when the request carries a progress token.' },
      async (_params, ctx) => {
        const progressToken = ctx.mcpReq._meta?.progressToken;
        for (const progress of [0, 50, 100]) {
          if (progressToken !== undefined) {
            await ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken, progress, total: 100, message: `${progress}% done` },
            });
          }
          if (progress < 100) await pause(50);
        }
        return 'Progress reported: 0, 50, 100 of 100.';
      },
    )
    .tool(
      'test_tool_with_logging',
      { description: 'Logs three messages at info level while it runs (2025-11-25 logging).' },
      async (_params, ctx) => {
        await ctx.mcpReq.log('info', 'Tool execution started');
        await pause(50);
        await ctx.mcpReq.log('info', 'Tool processing data');
        await pause(50);
        await ctx.mcpReq.log('info', 'Tool execution completed');
        return 'Logged three messages.';
      },
    );
}

function registerPrompts(server: McpResolveServer): McpResolveServer {
  return server
    .prompt('test_simple_prompt', { description: 'A prompt without arguments.' }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    }))
    .prompt(
      'test_prompt_with_arguments',
      {
        description: 'A prompt with two required arguments; arg1 offers completions.',
        args: {
          arg1: completable(z.string().describe('First test argument'), (value) =>
            ['paris', 'park', 'party'].filter((word) => word.startsWith(value)),
          ),
          arg2: z.string().describe('Second test argument'),
        },
      },
      ({ arg1, arg2 }) => ({
        messages: [
          { role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
        ],
      }),
    )
    .prompt(
      'test_prompt_with_embedded_resource',
      {
        description: 'A prompt that embeds the resource named by resourceUri.',
        args: { resourceUri: z.string().describe('URI of the resource to embed') },
      },
      ({ resourceUri }) => ({
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
            },
          },
          { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
        ],
      }),
    )
    .prompt('test_prompt_with_image', { description: 'A prompt that carries an image.' }, () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }));
}

function registerResources(server: McpResolveServer): McpResolveServer {
  return server
    .resource(
      'static-text',
      'test://static-text',
      { description: 'A static text resource.', mimeType: 'text/plain' },
      (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
      }),
    )
    .resource(
      'static-binary',
      'test://static-binary',
      { description: 'A static binary resource (PNG).', mimeType: 'image/png' },
      (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }] }),
    )
    .resource(
      'watched-resource',
      'test://watched-resource',
      { description: 'A resource clients may subscribe to (2025-11-25).', mimeType: 'text/plain' },
      (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This resource can be watched.' }] }),
    )
    .resource(
      'template-data',
      new ResourceTemplate('test://template/{id}/data', { list: undefined }),
      { description: 'JSON data for any id.', mimeType: 'application/json' },
      (uri, { id }) => ({
        contents: [
          {
            uri: uri.href,
            mimeType: 'application/json',
            text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
          },
        ],
      }),
    );
}

/** Registers every plain fixture, plus the SDK-level capabilities they need. */
export function registerPlainFixtures(server: McpResolveServer): McpResolveServer {
  return registerResources(registerPrompts(registerTools(server))).setup((mcp) => {
    // Logging (2025-11-25 `logging/setLevel`) and legacy resource subscriptions are SDK features:
    // declare them and accept subscriptions (this fixture never changes its resources).
    mcp.server.registerCapabilities({ logging: {}, resources: { subscribe: true } });
    mcp.server.setRequestHandler('resources/subscribe', () => ({}));
    mcp.server.setRequestHandler('resources/unsubscribe', () => ({}));
  });
}
