/**
 * The question app's resource and the app-only tool's SEP-3118 use, in process: the document is
 * self-contained (ext-apps' App bundle inlined, the form's style), the wire constants are the MCP
 * Apps specification's, the tool shows and checks only questions the server stored, within its bounds, and a
 * server without the option lists nothing of it.
 */
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { describe, expect, it } from 'vitest';

import { createMemoryAnswerPageBackend } from '../../src/pageStore/memoryBackend.js';
import { ANSWER_TOOL, APP_MIME_TYPE, ELICITATION_META, QUESTION_APP_URI, UI_EXTENSION } from '../../src/apps/wire.js';
import { APP_BUNDLE } from '../../src/apps/appBundle.js';
import { FORM_STYLE } from '../../src/form/style.js';
import { McpResolveServer } from 'mcp-resolve';
import { call, connect, ERAS, textOf } from '../resolvers/helpers.js';
import { APPS_ONLY, refundDesk, SEP_3118, submission } from './helpers.js';

describe('the wire constants', () => {
  it('are the MCP Apps specification values ext-apps names', () => {
    expect([APP_MIME_TYPE, UI_EXTENSION]).toEqual([RESOURCE_MIME_TYPE, EXTENSION_ID]);
  });
});

describe('the apps option', () => {
  it('refuses a backend that is not one', () => {
    const pending = Promise.resolve(createMemoryAnswerPageBackend());
    expect(() => new McpResolveServer({ name: 't', version: '1' }, { apps: { backend: pending as never } })).toThrow(
      'new McpResolveServer(): apps.backend is a Promise. Await createRedisAnswerPageBackend() before passing its result.',
    );
    expect(() => new McpResolveServer({ name: 't', version: '1' }, { answerPage: { backend: {} as never } })).toThrow(
      'new McpResolveServer(): answerPage.backend has no open, page, answer, take method. Pass createMemoryAnswerPageBackend() or createRedisAnswerPageBackend().',
    );
  });
});

describe.each(ERAS)('the question app resource (%s)', (era) => {
  it('is one self-contained document: the form style, the App class inlined, nothing to fetch', async () => {
    const connection = await connect(refundDesk().server, { era, capabilities: APPS_ONLY });
    const read = await connection.client.readResource({ uri: QUESTION_APP_URI });
    const [content] = read.contents;
    expect(content).toMatchObject({ uri: QUESTION_APP_URI, mimeType: APP_MIME_TYPE });
    const html = content !== undefined && 'text' in content ? content.text : '';
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(`<style>${FORM_STYLE}</style>`);
    expect(html).toContain(`<script type="module">${APP_BUNDLE}\n`);
    expect(APP_BUNDLE).toMatch(/const App=[\w$]+;$/);
    expect(html).toContain('app.setRequestHandler("elicitation/create"');
    expect(html).not.toMatch(/<script[^>]+src=|<link /);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    // ext-apps' own app-with-deps bundle made it 545,832 bytes; only what App reaches, minified, is built in.
    expect(Buffer.byteLength(html)).toBeLessThan(360_000);
  });

  it('shows and checks, through the app-only tool, only the question the server stored for the call', async () => {
    const outcomes: unknown[] = [];
    const connection = await connect(refundDesk().server, {
      era,
      capabilities: SEP_3118,
      elicit: async (params) => {
        const { page } = params._meta?.[ELICITATION_META] as { page: string };
        const shown = (await tool({ page })) as { status: string; form: string };
        outcomes.push(shown.status, shown.form.includes('<form novalidate>') && shown.form.includes('Amount'));
        const refused = (await tool({ page, form: submission({ amount: '0', reason: 'app' }), elicitation: true })) as {
          status: string;
          form: string;
        };
        outcomes.push(refused.status, refused.form.includes('Enter a whole number from 1 to 500.'));
        outcomes.push(await tool({ page, form: 'action=decline', elicitation: true }));
        const checked = (await tool({ page, form: submission({ amount: '7', reason: 'app' }), elicitation: true })) as {
          answer: { action: 'accept'; content: { amount: number; reason: string } };
        };
        outcomes.push(checked);
        return checked.answer;
      },
    });
    // Called only while the call asks, once `connection` is set.
    const tool = (args: Record<string, unknown>) =>
      connection.client.callTool({ name: ANSWER_TOOL, arguments: args }).then((result) => result.structuredContent);
    expect(textOf(await call(connection, 'refund', { order_id: 'ORD-1' }))).toBe('refunded 7 for app');
    expect(outcomes).toEqual([
      'form',
      true,
      'invalid',
      true,
      { status: 'checked', answer: { action: 'decline' } },
      { status: 'checked', answer: { action: 'accept', content: { amount: 7, reason: 'app' } } },
    ]);
  });

  it("holds an answer in the app to the server's maxAnswerBytes, as in-band", async () => {
    const forms: string[] = [];
    const connection = await connect(refundDesk({ apps: {}, maxAnswerBytes: 200 }).server, {
      era,
      capabilities: SEP_3118,
      elicit: async (params) => {
        const { page } = params._meta?.[ELICITATION_META] as { page: string };
        const form = submission({ amount: '7', reason: 'x'.repeat(300) });
        const refused = await connection.client.callTool({
          name: ANSWER_TOOL,
          arguments: { page, form, elicitation: true },
        });
        forms.push((refused.structuredContent as { form: string }).form);
        return { action: 'decline' };
      },
    });
    await call(connection, 'refund', { order_id: 'ORD-1' });
    expect(forms).toHaveLength(1);
    expect(forms[0]).toMatch(/The answer is too long \(\d+ bytes; this server takes at most 200\)\. Shorten it\./);
  });

  it('never reads a question the client sends, and bounds what the app sends: a page id, the form', async () => {
    const connection = await connect(refundDesk().server, { era, capabilities: SEP_3118 });
    const tool = (args: Record<string, unknown>) => connection.client.callTool({ name: ANSWER_TOOL, arguments: args });
    const forwarded = {
      message: 'Unlock?',
      requestedSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } },
    };
    const planted = await tool({ question: forwarded, form: submission({ code: `${'a'.repeat(28)}!` }) });
    expect(planted.isError).toBe(true);
    expect(textOf(planted)).not.toContain('form');
    expect((await tool({ page: 'x'.repeat(65), form: '' })).isError).toBe(true);
    expect((await tool({ page: 'A'.repeat(22), form: 'x'.repeat(65_536 * 3 + 4097) })).isError).toBe(true);
    for (const args of [{ page: 'A'.repeat(22) }, { page: 'A'.repeat(22), form: 'action=accept', elicitation: true }]) {
      expect((await tool(args)).structuredContent).toMatchObject({ status: 'closed' });
    }
  });
});

describe.each(ERAS)('a server without the apps option (%s)', (era) => {
  it('lists no app, no resource, no answer tool, declares nothing, whatever the client declares', async () => {
    const connection = await connect(refundDesk({}).server, { era, capabilities: SEP_3118 });
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => [tool.name, tool._meta])).toEqual([
      ['refund', undefined],
      ['ping', undefined],
    ]);
    expect(connection.client.getServerCapabilities()?.extensions?.[UI_EXTENSION]).toBeUndefined();
    expect(connection.client.getServerCapabilities()?.resources).toBeUndefined();
  });
});

describe.each(ERAS)("the app-only tool's failures (%s)", (era) => {
  it("reach the client masked with a ref, the cause only the server's onerror", async () => {
    const memory = createMemoryAnswerPageBackend();
    const backend = {
      ...memory,
      open: memory.open.bind(memory),
      answer: memory.answer.bind(memory),
      take: memory.take.bind(memory),
      page: () => Promise.reject(new Error('ECONNREFUSED 10.0.0.7:6379 (the Redis client is offline)')),
    };
    const seen: Array<{ error: unknown; ref: string }> = [];
    const { server } = refundDesk({ apps: { backend }, onerror: (error, info) => seen.push({ error, ref: info.ref }) });
    const connection = await connect(server, { era, capabilities: APPS_ONLY });
    const failed = await connection.client.callTool({ name: ANSWER_TOOL, arguments: { page: 'A'.repeat(22) } });
    expect(failed.isError).toBe(true);
    const text = textOf(failed);
    expect(text).toMatch(/^Internal error \(ref [0-9a-f]{12}\): the server could not complete this request\./);
    expect(text).not.toMatch(/ECONNREFUSED|Redis|10\.0\.0\.7/);
    expect(seen).toHaveLength(1);
    expect(text).toContain(seen[0]!.ref);
    expect((seen[0]!.error as Error).message).toContain('ECONNREFUSED');
  });
});
