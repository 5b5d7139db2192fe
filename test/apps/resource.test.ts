/**
 * The question app's resource and the app-only tool's SEP-3118 use, in process: the document is
 * self-contained (ext-apps' App bundle inlined, the form's style), the wire constants are the MCP
 * Apps specification's, the tool renders and checks a forwarded question within its bounds, and a
 * server without the option lists nothing of it.
 */
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { describe, expect, it } from 'vitest';

import { inlinedApp } from '../../src/apps/appHtml.js';
import { ANSWER_TOOL, APP_MIME_TYPE, QUESTION_APP_URI, UI_EXTENSION } from '../../src/apps/wire.js';
import { FORM_STYLE } from '../../src/form/style.js';
import { McpResolveServer } from 'mcp-resolve';
import { connect, ERAS } from '../resolvers/helpers.js';
import { APPS_ONLY, refundDesk, SEP_3118, submission } from './helpers.js';

const QUESTION = {
  message: 'Refund?',
  requestedSchema: {
    type: 'object',
    properties: { amount: { type: 'integer', title: 'Amount', minimum: 1, maximum: 500 } },
    required: ['amount'],
  },
};

describe('the wire constants', () => {
  it('are the MCP Apps specification values ext-apps names', () => {
    expect([APP_MIME_TYPE, UI_EXTENSION]).toEqual([RESOURCE_MIME_TYPE, EXTENSION_ID]);
  });
});

describe('inlinedApp', () => {
  it('binds App to the bundle export and refuses anything else', () => {
    expect(inlinedApp('var a=1;export{b as X,a as App};', 'api')).toBe('var a=1;\nconst App = a;\n');
    expect(() => inlinedApp('var a=1;', 'api')).toThrow(
      "api: the app script is not @modelcontextprotocol/ext-apps' app-with-deps bundle",
    );
    expect(() => inlinedApp('"</script>";export{a as App};', 'api')).toThrow('holds "</script"');
    expect(() => new McpResolveServer({ name: 't', version: '1' }, { apps: { appScript: 'nope' } })).toThrow(
      'new McpResolveServer(): the app script',
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
    expect(html).toContain('const App = ');
    expect(html).toContain('app.setRequestHandler("elicitation/create"');
    expect(html).not.toMatch(/<script[^>]+src=|<link /);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
  });

  it('renders and checks a forwarded question through the app-only tool', async () => {
    const connection = await connect(refundDesk().server, { era, capabilities: SEP_3118 });
    const tool = (args: Record<string, unknown>) =>
      connection.client.callTool({ name: ANSWER_TOOL, arguments: args }).then((result) => result.structuredContent);
    const shown = (await tool({ question: QUESTION })) as { status: string; form: string };
    expect(shown.status).toBe('form');
    expect(shown.form).toContain('<form novalidate>');
    expect(await tool({ question: QUESTION, form: submission({ amount: '7' }) })).toEqual({
      status: 'checked',
      answer: { action: 'accept', content: { amount: 7 } },
    });
    expect(await tool({ question: QUESTION, form: 'action=decline' })).toEqual({
      status: 'checked',
      answer: { action: 'decline' },
    });
    const refused = (await tool({ question: QUESTION, form: submission({ amount: '0' }) })) as { form: string };
    expect(refused).toMatchObject({ status: 'invalid' });
    expect(refused.form).toContain('Enter a whole number from 1 to 500.');
  });

  it('bounds what the app sends: a page id, the form, the question', async () => {
    const connection = await connect(refundDesk().server, { era, capabilities: APPS_ONLY });
    const tool = (args: Record<string, unknown>) => connection.client.callTool({ name: ANSWER_TOOL, arguments: args });
    expect((await tool({ page: 'x'.repeat(65), form: '' })).isError).toBe(true);
    expect((await tool({ page: 'A'.repeat(22), form: 'x'.repeat(65_536 * 3 + 4097) })).isError).toBe(true);
    const huge = { message: 'x'.repeat(70_000), requestedSchema: {} };
    const tooLarge = await tool({ question: huge });
    expect(tooLarge.isError).toBe(true);
    expect(tooLarge.structuredContent).toMatchObject({ status: 'closed' });
    expect((await tool({ page: 'A'.repeat(22), form: 'action=accept' })).structuredContent).toMatchObject({
      status: 'closed',
    });
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
