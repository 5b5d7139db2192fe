/** URL-mode questions: elicitUrl(message, url) as a resolver marker, on both eras, gated on elicitation.url. */
import type { ElicitRequest } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import { elicit, elicitUrl, McpResolveError, outcome, resolver } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { call, connect, ERAS, newServer, textOf } from './helpers.js';

/** A checkout tool: the card is typed on the payment page, never through the client. */
function checkoutServer() {
  const runs = { body: 0 };
  const pay = resolver({ name: 'payment', args: { order_id: z.string() } }, ({ order_id }) =>
    elicitUrl(`Pay for ${order_id} on the payment page.`, `http://127.0.0.1:9/pay/${order_id}`),
  );
  const server = newServer()
    .tool('checkout', { input: { order_id: z.string() }, resolve: { payment: pay } }, ({ payment }) => {
      runs.body++;
      return `paid under ${payment.elicitationId}`;
    })
    .tool(
      'maybe',
      { input: { order_id: z.string() }, resolve: { payment: outcome(pay) } },
      ({ payment }) => payment.action,
    );
  return { server, runs };
}

const URL_CAPABLE = { elicitation: { form: {}, url: {} } };

describe.each(ERAS)('elicitUrl (%s)', (era) => {
  it('sends a URL-mode elicitation with a stable id; accepting gives the consumer that id', async () => {
    const { server, runs } = checkoutServer();
    const seen: ElicitRequest['params'][] = [];
    const connection = await connect(server, {
      era,
      capabilities: URL_CAPABLE,
      elicit: (params) => {
        seen.push(params);
        return { action: 'accept' };
      },
    });
    const result = await call(connection, 'checkout', { order_id: 'ORD-1' });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request).toMatchObject({
      mode: 'url',
      message: 'Pay for ORD-1 on the payment page.',
      url: 'http://127.0.0.1:9/pay/ORD-1',
    });
    const id = /^paid under ([A-Za-z0-9_-]{22})$/.exec(textOf(result))?.[1];
    expect(id).toBeDefined();
    expect(runs.body).toBe(1);
    // 2025-11-25 sends the id (completion is reported under it); 2026-07-28 dropped the field.
    const sentIds = () => seen.map((params) => ('elicitationId' in params ? params.elicitationId : undefined));
    expect(sentIds()).toEqual([era === 'legacy' ? id : undefined]);

    // The default id is random per call: the same question asked again gets another id.
    const again = await call(connection, 'checkout', { order_id: 'ORD-1' });
    expect(textOf(again)).toMatch(/^paid under [A-Za-z0-9_-]{22}$/);
    expect(textOf(again)).not.toBe(`paid under ${id}`);
    expect(runs.body).toBe(2);
  });

  it('keeps a call’s default id stable across its rounds', async () => {
    const pay = resolver({ name: 'payment' }, () => elicitUrl('Pay on the payment page.', 'https://pay.example/p'));
    const confirm = resolver({ name: 'confirm', deps: { payment: pay } }, ({ payment }) =>
      elicit(`Confirm payment ${payment.elicitationId}?`, z.object({ ok: z.boolean() })),
    );
    const server = newServer().tool(
      'checkout',
      { resolve: { payment: pay, confirm } },
      ({ payment }) => `paid under ${payment.elicitationId}`,
    );
    const messages: string[] = [];
    const connection = await connect(server, {
      era,
      capabilities: URL_CAPABLE,
      elicit: (params) => {
        messages.push(params.message);
        return params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { ok: true } };
      },
    });
    const result = await call(connection, 'checkout');
    const id = /^paid under ([A-Za-z0-9_-]{22})$/.exec(textOf(result))?.[1];
    expect(id).toBeDefined();
    expect(messages).toEqual(['Pay on the payment page.', `Confirm payment ${id}?`]);
  });

  it('a decline aborts an unwrapped consumer with the question named; an outcome consumer branches', async () => {
    const { server, runs } = checkoutServer();
    const connection = await connect(server, { era, capabilities: URL_CAPABLE, elicit: () => ({ action: 'decline' }) });
    const result = await call(connection, 'checkout', { order_id: 'ORD-1' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `Resolver for parameter 'payment' could not resolve: elicitation was decline. "Pay for ORD-1 on the payment page." was declined, so the call stopped.`,
    );
    expect(runs.body).toBe(0);
    expect(textOf(await call(connection, 'maybe', { order_id: 'ORD-1' }))).toBe('decline');
  });

  it('a client without elicitation.url is refused with -32021 naming URL mode, before anything is sent', async () => {
    const { server, runs } = checkoutServer();
    let asked = 0;
    const connection = await connect(server, {
      era,
      capabilities: { elicitation: { form: {} } },
      elicit: () => {
        asked++;
        return { action: 'accept' };
      },
    });
    const error = await call(connection, 'checkout', { order_id: 'ORD-1' }).then(
      (value) => expect.fail(`expected -32021, got ${JSON.stringify(value)}`),
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    if (!(error instanceof ProtocolError)) return;
    expect(error.code).toBe(-32021);
    expect(error.message).toContain("Client does not support elicitation (URL mode), which resolver 'payment' needs");
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
    expect([asked, runs.body]).toEqual([0, 0]);
  });
});

/**
 * A checkout whose payment page reports completion: `onAsked` files the connection's completion
 * sender under the elicitation id, and `finishPayment` (the page handler, outside any MCP request)
 * calls it.
 */
function completingCheckout() {
  const senders = new Map<string, () => Promise<void>>();
  const pay = resolver({ name: 'payment', args: { order_id: z.string() } }, ({ order_id }) =>
    elicitUrl(`Pay for ${order_id}.`, `http://127.0.0.1:9/pay/${order_id}`, {
      elicitationId: `pay-${order_id}`,
      onAsked: (complete) => senders.set(`pay-${order_id}`, complete),
    }),
  );
  const server = newServer().tool(
    'checkout',
    { input: { order_id: z.string() }, resolve: { payment: pay } },
    ({ payment }) => `paid under ${payment.elicitationId}`,
  );
  const finishPayment = async (id: string) => senders.get(id)?.();
  return { server, senders, finishPayment };
}

describe('elicitUrl completion (notifications/elicitation/complete)', () => {
  it('legacy: the page step sends the completion with the elicitation id, on the connection that asked only', async () => {
    const { server, senders, finishPayment } = completingCheckout();
    const pageSteps: Array<Promise<void>> = [];
    const connect2 = async () => {
      const completed: string[] = [];
      const connection = await connect(server, {
        era: 'legacy',
        capabilities: URL_CAPABLE,
        elicit: (params) => {
          // The person pays on the page while the client holds the question open.
          if ('elicitationId' in params) pageSteps.push(finishPayment(params.elicitationId));
          return { action: 'accept' };
        },
      });
      connection.client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
        completed.push(notification.params.elicitationId);
      });
      return { connection, completed };
    };
    const first = await connect2();
    const second = await connect2();
    expect(textOf(await call(first.connection, 'checkout', { order_id: 'A' }))).toBe('paid under pay-A');
    expect(textOf(await call(second.connection, 'checkout', { order_id: 'B' }))).toBe('paid under pay-B');
    await Promise.all(pageSteps);
    // A round trip on each connection flushes notifications sent before it.
    await first.connection.client.listTools();
    await second.connection.client.listTools();
    expect([...senders.keys()]).toEqual(['pay-A', 'pay-B']);
    expect(first.completed).toEqual(['pay-A']);
    expect(second.completed).toEqual(['pay-B']);
  });

  it('modern: onAsked is never called, nothing is sent, and the call completes', async () => {
    const { server, senders } = completingCheckout();
    const completed: unknown[] = [];
    const connection = await connect(server, {
      era: 'modern',
      capabilities: URL_CAPABLE,
      elicit: () => ({ action: 'accept' }),
    });
    connection.client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      completed.push(notification);
    });
    const result = await call(connection, 'checkout', { order_id: 'A' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('paid under pay-A');
    await connection.client.listTools();
    expect([senders.size, completed]).toEqual([0, []]);
  });
});

describe('elicitUrl() declaration', () => {
  it.each([
    [
      'http://pay.example/1',
      "elicitUrl(): the URL must use https (got 'http:' for host 'pay.example'). Serve the page over https; plain http is allowed only for localhost, 127.0.0.1 and [::1] during development.",
    ],
    [
      'javascript:alert(1)',
      "elicitUrl(): the URL must use https (got 'javascript:'). Send the person to an https page your server serves.",
    ],
    [
      'data:text/html,<script>1</script>',
      "elicitUrl(): the URL must use https (got 'data:'). Send the person to an https page your server serves.",
    ],
    [
      'file:///etc/passwd',
      "elicitUrl(): the URL must use https (got 'file:'). Send the person to an https page your server serves.",
    ],
    [
      'vbscript:msgbox',
      "elicitUrl(): the URL must use https (got 'vbscript:'). Send the person to an https page your server serves.",
    ],
    [
      'https://user:secret@pay.example/1',
      "elicitUrl(): the URL carries a user name or password (got 'https://…@pay.example'). Leave credentials out of the URL: the page signs the person in itself.",
    ],
    [
      'https://pay.example/1\nSet-Cookie: x',
      'elicitUrl(): the URL contains a control character (got "https://pay.example/1\\nSet-Cookie: x"). Remove line breaks, tabs and other control characters from it.',
    ],
  ])('refuses %j with an exact message naming the problem and the fix', (url, message) => {
    expect(() => elicitUrl('Pay', url)).toThrow(McpResolveError);
    expect(() => elicitUrl('Pay', url)).toThrow(message);
  });

  it('takes https anywhere and plain http on localhost, 127.0.0.1 and [::1]', () => {
    for (const url of [
      'https://pay.example/1',
      'http://localhost:3000/pay',
      'http://127.0.0.1:9/pay',
      'http://[::1]:9/pay',
    ]) {
      expect(elicitUrl('Pay', url).url).toBe(new URL(url).href);
    }
  });

  it('the legacy push carries only a checked URL (a javascript: URL never reaches the client)', async () => {
    const pay = resolver({ name: 'payment' }, () => elicitUrl('Pay', 'javascript:alert(1)'));
    const server = newServer().tool('checkout', { resolve: { payment: pay } }, () => 'paid');
    let asked = 0;
    const connection = await connect(server, {
      era: 'legacy',
      capabilities: URL_CAPABLE,
      elicit: () => {
        asked++;
        return { action: 'accept' };
      },
    });
    const result = await call(connection, 'checkout');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("elicitUrl(): the URL must use https (got 'javascript:')");
    expect(asked).toBe(0);
  });

  it('refuses a URL that is not absolute, and takes an explicit elicitation id', () => {
    expect(() => elicitUrl('Pay', '/pay/1')).toThrow(McpResolveError);
    expect(() => elicitUrl('Pay', '/pay/1')).toThrow("elicitUrl(): '/pay/1' is not an absolute URL.");
    expect(elicitUrl('Pay', 'https://pay.example/1', { elicitationId: 'pay-1' })).toMatchObject({
      elicitationId: 'pay-1',
      url: 'https://pay.example/1',
    });
  });
});
