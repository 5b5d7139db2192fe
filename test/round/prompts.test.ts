/** Prompt arguments: a zod raw shape or a Standard Schema, listed, validated and parsed the same way on both eras. */
import { fromJsonSchema } from '@modelcontextprotocol/server';
import type { GetPromptResult } from '@modelcontextprotocol/server';
import { McpResolveError, resolver } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { connect, ERAS, newServer } from '../resolvers/helpers.js';

const reply = (text: string): GetPromptResult => ({ messages: [{ role: 'user', content: { type: 'text', text } }] });

/** The text of a prompt's first message. */
function textOf(result: { messages: GetPromptResult['messages'] }): string {
  const content = result.messages[0]?.content;
  return content?.type === 'text' ? content.text : expect.fail('expected a text message');
}

const TOPIC = z.string().describe('What to write about');
const TONE = z.string().optional().describe('How it should sound');

const loud = resolver({ name: 'loud', args: { topic: z.string() } }, ({ topic }) => topic.toUpperCase());

function briefServer() {
  return newServer()
    .prompt('shaped', { args: { topic: TOPIC, tone: TONE }, resolve: { loud } }, ({ topic, tone, loud: l }) =>
      reply(`${topic}|${tone ?? '-'}|${l}`),
    )
    .prompt('framed', { args: z.object({ topic: TOPIC, tone: TONE }), resolve: { loud } }, ({ topic, tone, loud: l }) =>
      reply(`${topic}|${tone ?? '-'}|${l}`),
    )
    .prompt('counted', { args: z.object({ count: z.string().regex(/^\d+$/).transform(Number) }) }, ({ count }) =>
      reply(`${typeof count} ${count + 1}`),
    )
    .prompt(
      'json',
      {
        args: fromJsonSchema<{ topic: string }>({
          type: 'object',
          properties: { topic: { type: 'string', description: 'What to write about' } },
          required: ['topic'],
        }),
      },
      ({ topic }) => reply(`json ${topic}`),
    );
}

describe.each(ERAS)('prompt arguments from a Standard Schema (%s)', (era) => {
  it('lists its arguments as a zod raw shape would, from the JSON Schema, resolved parameters hidden', async () => {
    const connection = await connect(briefServer(), { era });
    const { prompts } = await connection.client.listPrompts();
    const argumentsOf = (name: string) => prompts.find((prompt) => prompt.name === name)?.arguments;
    const expected = [
      { name: 'topic', description: 'What to write about', required: true },
      { name: 'tone', description: 'How it should sound', required: false },
    ];
    expect(argumentsOf('shaped')).toEqual(expected);
    expect(argumentsOf('framed')).toEqual(expected);
    expect(argumentsOf('json')).toEqual([expected[0]]);
    expect(argumentsOf('counted')).toEqual([{ name: 'count', required: true }]);
  });

  it('passes the parsed values and the resolved ones to the body', async () => {
    const connection = await connect(briefServer(), { era });
    const framed = await connection.client.getPrompt({ name: 'framed', arguments: { topic: 'tides' } });
    expect(textOf(framed)).toBe('tides|-|TIDES');
    const toned = await connection.client.getPrompt({ name: 'framed', arguments: { topic: 'tides', tone: 'dry' } });
    expect(textOf(toned)).toBe('tides|dry|TIDES');
    const counted = await connection.client.getPrompt({ name: 'counted', arguments: { count: '41' } });
    expect(textOf(counted)).toBe('number 42');
    const json = await connection.client.getPrompt({ name: 'json', arguments: { topic: 'tides' } });
    expect(textOf(json)).toBe('json tides');
  });

  it('refuses bad arguments with the same -32602 error as a zod raw shape, naming the prompt and the argument', async () => {
    const connection = await connect(briefServer(), { era });
    const refusal = (name: string, args: Record<string, string>) =>
      connection.client.getPrompt({ name, arguments: args }).then(
        () => expect.fail(`prompt ${name} accepted ${JSON.stringify(args)}`),
        (error: unknown) => (error instanceof Error ? error : expect.fail(`not an Error: ${String(error)}`)),
      );
    const shaped = await refusal('shaped', {});
    const framed = await refusal('framed', {});
    expect(shaped).toMatchObject({ code: -32602 });
    expect(framed).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid arguments for prompt framed: topic: Invalid input'),
    });
    expect(framed.message.replace('framed', 'shaped')).toBe(shaped.message);
    expect(await refusal('counted', { count: 'many' })).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid arguments for prompt counted: count: '),
    });
    expect(await refusal('json', {})).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid arguments for prompt json: '),
    });
  });
});

describe('prompt arguments at registration', () => {
  it('a resolved parameter may not also be an argument of a Standard Schema', () => {
    const topic = resolver({ name: 'topic' }, () => 'tides');
    const register = () =>
      newServer().prompt('clash', { args: z.object({ topic: z.string() }), resolve: { topic } }, () => reply(''));
    expect(register).toThrow(McpResolveError);
    expect(register).toThrow(
      "Tool 'clash' resolves parameter 'topic', which is also a model-facing argument in its input: rename one of them.",
    );
  });

  it('a resolver reading an argument checks its type against the schema, as for a tool', () => {
    const numeric = resolver({ name: 'numeric', args: { n: z.number() } }, ({ n }) => n);
    const register = () =>
      newServer().prompt(
        'typed',
        // @ts-expect-error - prompt arguments are strings, the resolver reads a number
        { args: z.object({ n: z.string() }), resolve: { v: numeric } },
        () => reply(''),
      );
    expect(register).toThrow(
      "Resolver 'numeric' argument 'n' does not accept the tool's input: tool 'typed' gives string, which the resolver's args schema refuses. Give both the same type.",
    );
  });

  it('a schema that is not an object, or a shape entry that is not zod 4, is refused by name', () => {
    // @ts-expect-error - prompt arguments are an object of named strings
    expect(() => newServer().prompt('flat', { args: z.string() }, () => reply(''))).toThrow(
      'Prompt \'flat\' args: the schema must describe an object (got type "string").',
    );
    // @ts-expect-error - a zod 3 schema (here its look-alike) is not a zod 4 schema
    expect(() => newServer().prompt('old', { args: { topic: { _def: {} } } }, () => reply(''))).toThrow(
      "Prompt 'old' args 'topic': not a zod v4 schema (a zod 3 schema has no '_zod').",
    );
  });
});
