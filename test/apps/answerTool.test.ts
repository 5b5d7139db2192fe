/**
 * The app-only answer tool is listed to, and taken from, only clients that render MCP Apps, on both
 * eras (the capability from `initialize` on 2025-11-25, from each request on 2026-07-28): a model
 * on a client that shows forms or nothing never sees it, and a call from such a client is refused,
 * naming the capability a host declares.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import { NOT_AN_APP_HOST } from '../../src/apps/answerTool.js';
import { ANSWER_TOOL } from '../../src/apps/wire.js';
import { connect, ERAS, textOf } from '../resolvers/helpers.js';
import { APPS_ONLY, FORMS_AND_APPS, refundDesk, SEP_3118 } from './helpers.js';

const NO_APPS: Array<[string, ClientCapabilities]> = [
  ['no capability', {}],
  ['forms only', { elicitation: { form: {} } }],
];
const APPS: Array<[string, ClientCapabilities]> = [
  ['apps only', APPS_ONLY],
  ['forms and apps', FORMS_AND_APPS],
  ['SEP-3118', SEP_3118],
];

describe.each(ERAS)('the answer tool (%s)', (era) => {
  it.each(NO_APPS)('is not listed to, and refuses, a client with %s', async (_, capabilities) => {
    const connection = await connect(refundDesk({ apps: {} }).server, { era, capabilities });
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['refund', 'ping']);
    const refused = await connection.client.callTool({ name: ANSWER_TOOL, arguments: { page: 'A'.repeat(22) } });
    expect({ isError: refused.isError, text: textOf(refused) }).toEqual({ isError: true, text: NOT_AN_APP_HOST });
  });

  it("is not added when both of the app's channels are off", async () => {
    const connection = await connect(refundDesk({ apps: { inChat: false, attachToForms: false } }).server, {
      era,
      capabilities: APPS_ONLY,
    });
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['refund', 'ping']);
    await expect(
      connection.client.callTool({ name: ANSWER_TOOL, arguments: { page: 'A'.repeat(22) } }),
    ).rejects.toThrow(`Tool ${ANSWER_TOOL} not found`);
  });

  it.each(APPS)('is listed to, and answers, a client with %s', async (_, capabilities) => {
    const connection = await connect(refundDesk().server, { era, capabilities });
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['refund', 'ping', ANSWER_TOOL]);
    const answered = await connection.client.callTool({ name: ANSWER_TOOL, arguments: { page: 'A'.repeat(22) } });
    expect(answered.structuredContent).toMatchObject({ status: 'closed' });
  });
});

describe('NOT_AN_APP_HOST', () => {
  it('names the tool and the capability a host declares', () => {
    expect(NOT_AN_APP_HOST).toBe(
      'mcp_resolve_answer is the question app\'s: only a client that renders MCP Apps may call it. A host declares it in its capabilities: extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } }.',
    );
  });
});
