/**
 * Anonymous use that cannot be hijacked: an attacker who makes the same call (same tool, same
 * arguments) as the victim gets a page of its own and cannot plant an answer into the victim's
 * call — a URL-only client on both eras (the page is bound to the call's sealed secret on
 * 2026-07-28, to a per-call value held in process on 2025-11-25), a client without elicitation on
 * 2025-11-25 (bound to its session); on 2026-07-28 a client without elicitation holds nothing of its
 * first call, so an anonymous server refuses it (-32021) and an authenticated one binds the page to
 * the principal. Over HTTP, with the official client.
 */
import type { ElicitRequest } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Era } from '../../src/context.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { connectHttp } from '../../src/testing/index.js';
import { answerPageOverHttp, linkIn, refundServer } from './refundServer.js';

const ARGS = { order_id: 'ORD-1' };
const ERAS: Era[] = ['modern', 'legacy'];

let anonymous: HttpServerHandle;
let signedIn: HttpServerHandle;

beforeAll(async () => {
  anonymous = await serveHttp(refundServer({}));
  const authenticate = (request: Request): AuthInfo | Response => {
    // The person's browser holds no bearer token: its page requests are let through here.
    if (new URL(request.url).pathname.startsWith('/mcp-resolve/answer/'))
      return { token: '', clientId: '', scopes: [] };
    const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
    return token === undefined ? new Response(null, { status: 401 }) : { token, clientId: token, scopes: [] };
  };
  signedIn = await serveHttp(refundServer({}), { authenticate });
});
afterAll(async () => {
  await anonymous?.close();
  await signedIn?.close();
});

/** A client of `served` on `era` declaring `capabilities`, signed in as `user` when given. */
function client(
  served: HttpServerHandle,
  era: Era,
  capabilities: Record<string, unknown>,
  elicit?: (params: ElicitRequest['params']) => Promise<{ action: 'accept' | 'decline' }>,
  user?: string,
) {
  return connectHttp(served.url, {
    era,
    capabilities,
    ...(elicit !== undefined && { elicit }),
    ...(user !== undefined && { transportOptions: { requestInit: { headers: { authorization: `Bearer ${user}` } } } }),
  });
}

const call = (connection: Awaited<ReturnType<typeof client>>) =>
  connection.client.callTool({ name: 'refund', arguments: ARGS });

describe.each(ERAS)('an attacker making the same call (%s era)', (era) => {
  it('gets another page and cannot answer for a URL-only victim', async () => {
    let attackerUrl = '';
    const attacker = await client(anonymous, era, { elicitation: { url: {} } }, async (params) => {
      attackerUrl = params.mode === 'url' ? params.url : '';
      await answerPageOverHttp(attackerUrl, 500);
      return { action: 'accept' };
    });
    let victimUrl = '';
    const victim = await client(anonymous, era, { elicitation: { url: {} } }, async (params) => {
      if (params.mode !== 'url') return { action: 'decline' };
      if (victimUrl === '') {
        victimUrl = params.url;
        // While the victim's page is open, the attacker makes the same call and answers its page.
        expect((await call(attacker)).content).toEqual([{ type: 'text', text: 'refunded {"amount":500}' }]);
        expect(attackerUrl).not.toBe(victimUrl);
        await answerPageOverHttp(victimUrl, 120);
      }
      return { action: 'accept' };
    });
    try {
      expect((await call(victim)).content).toEqual([{ type: 'text', text: 'refunded {"amount":120}' }]);
    } finally {
      await victim.close();
      await attacker.close();
    }
  });
});

describe('an attacker making the same call as a client without elicitation', () => {
  it('gets another link on 2025-11-25 (the page is bound to the session), and its answer never reaches the victim', async () => {
    const victim = await client(anonymous, 'legacy', {});
    const attacker = await client(anonymous, 'legacy', {});
    try {
      const victimUrl = linkIn(await call(victim));
      const attackerUrl = linkIn(await call(attacker));
      expect(attackerUrl).not.toBe(victimUrl);
      await answerPageOverHttp(attackerUrl, 500);
      const retried = await call(victim);
      expect(retried.isError).toBe(true);
      expect(linkIn(retried)).toBe(victimUrl);
      await answerPageOverHttp(victimUrl, 120);
      expect((await call(victim)).content).toEqual([{ type: 'text', text: 'refunded {"amount":120}' }]);
    } finally {
      await victim.close();
      await attacker.close();
    }
  });

  it('is refused on an anonymous 2026-07-28 server with -32021 naming the option, as without pages', async () => {
    const connection = await client(anonymous, 'modern', {});
    try {
      const error = await call(connection).then(
        (value) => expect.fail(`expected -32021, got ${JSON.stringify(value)}`),
        (reason: unknown) => reason,
      );
      if (!(error instanceof ProtocolError)) return expect.fail(`expected a ProtocolError, got ${String(error)}`);
      expect(error.code).toBe(-32021);
      expect(error.message).toContain("Client does not support elicitation (form mode), which resolver 'confirm'");
      expect(error.message).toContain('anonymousLinksShareAnswers: true');
      expect(error.data).toEqual({ requiredCapabilities: { elicitation: { form: {} } } });
    } finally {
      await connection.close();
    }
  });

  it('gets another link on 2026-07-28 when signed in as someone else (the page is bound to the principal)', async () => {
    const victim = await client(signedIn, 'modern', {}, undefined, 'alice');
    const attacker = await client(signedIn, 'modern', {}, undefined, 'mallory');
    try {
      const victimUrl = linkIn(await call(victim));
      const attackerUrl = linkIn(await call(attacker));
      expect(attackerUrl).not.toBe(victimUrl);
      await answerPageOverHttp(attackerUrl, 500);
      expect(linkIn(await call(victim))).toBe(victimUrl);
      await answerPageOverHttp(victimUrl, 120);
      expect((await call(victim)).content).toEqual([{ type: 'text', text: 'refunded {"amount":120}' }]);
    } finally {
      await victim.close();
      await attacker.close();
    }
  });
});
