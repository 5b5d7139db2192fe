/** Prompts: `args` takes a zod raw shape or a Standard Schema of strings, and the body's types follow from it. */
import type { GetPromptResult } from '@modelcontextprotocol/server';
import { fromJsonSchema } from '@modelcontextprotocol/server';
import type { ToolContext } from 'mcp-resolve';
import { McpResolveServer, resolver } from 'mcp-resolve';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const server = () => new McpResolveServer({ name: 'test', version: '1.0.0' });

const reply = (text: string): GetPromptResult => ({ messages: [{ role: 'user', content: { type: 'text', text } }] });

const who = resolver({ name: 'who' }, () => 'Ada');

describe('prompt arguments', () => {
  it('a zod raw shape types the body as before', () => {
    server().prompt(
      'p',
      { args: { topic: z.string(), tone: z.string().optional() }, resolve: { who } },
      ({ topic, tone, who: w }, ctx) => {
        expectTypeOf(topic).toEqualTypeOf<string>();
        expectTypeOf(tone).toEqualTypeOf<string | undefined>();
        expectTypeOf(w).toEqualTypeOf<string>();
        expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
        return reply(topic);
      },
    );
  });

  it('a zod object types the body from its output, transforms included', () => {
    const Args = z.object({ topic: z.string(), count: z.string().transform(Number), tone: z.string().optional() });
    server().prompt('p', { args: Args, resolve: { who } }, (params) => {
      expectTypeOf(params).toEqualTypeOf<{ topic: string; count: number; tone?: string | undefined; who: string }>();
      return reply(params.topic);
    });
  });

  it('any Standard Schema with JSON Schema of string arguments, typed by its output', () => {
    const Args = fromJsonSchema<{ topic: string }>({
      type: 'object',
      properties: { topic: { type: 'string' } },
      required: ['topic'],
    });
    server().prompt('p', { args: Args }, ({ topic }) => {
      expectTypeOf(topic).toEqualTypeOf<string>();
      return reply(topic);
    });
  });

  it('refuses arguments that are not strings on the wire, in either form', () => {
    // @ts-expect-error - prompt arguments are strings: a number schema cannot read one
    server().prompt('p', { args: z.object({ n: z.number() }) }, () => reply(''));
    // @ts-expect-error - the same rule for a raw shape
    server().prompt('p', { args: { n: z.number() } }, () => reply(''));
  });

  it('a resolver reading an argument is checked against a Standard Schema as against a shape', () => {
    const reads = resolver({ name: 'reads', args: { topic: z.string() } }, ({ topic }) => topic.length);
    server().prompt('ok', { args: z.object({ topic: z.string() }), resolve: { n: reads } }, ({ n }) => {
      expectTypeOf(n).toEqualTypeOf<number>();
      return reply(String(n));
    });
    server().prompt(
      't',
      // @ts-expect-error - the prompt has no 'topic' argument
      { args: z.object({ subject: z.string() }), resolve: { n: reads } },
      () => reply(''),
    );
  });
});
