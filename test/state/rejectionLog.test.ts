/**
 * Rejected tokens are client-caused: a client sending thousands of bad requestState values must not
 * write thousands of log lines. A few lines per interval are written, the rest counted into one
 * summary line, never silenced.
 */
import { ProtocolError } from '@modelcontextprotocol/client';
import { elicit, resolver } from 'mcp-resolve';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { createLogLimiter } from '../../src/logLimiter.js';
import { asked, connectManual, newServer } from '../resolvers/helpers.js';

const Pick = z.object({ pick: z.string() });

describe('rejected requestState lines over the wire', () => {
  it('200 bad tokens reach onerror 5 times (the method, name requestState), then once counting the other 195 once the interval is over', async () => {
    const lines: string[] = [];
    let now = Date.UTC(2026, 0, 1);
    const ask = resolver({ name: 'ask' }, () => elicit('Pick?', Pick));
    const server = newServer({
      requestState: { now: () => now },
      onerror: (error, { method, name }) => void lines.push(`${method} ${name}: ${(error as Error).message}`),
    }).tool('t', { resolve: { ask } }, () => 'ran');
    const manual = await connectManual(server);
    const first = asked(await manual.round('t', {}));
    const bad = `${(first.requestState ?? '').slice(0, -4)}AAAA`;
    for (let i = 0; i < 200; i++) {
      await expect(manual.round('t', {}, { requestState: bad })).rejects.toBeInstanceOf(ProtocolError);
    }
    expect(lines).toEqual(Array(5).fill('tools/call requestState: requestState rejected on tools/call: tampered'));
    now += 10_000;
    await expect(manual.round('t', {}, { requestState: bad })).rejects.toBeInstanceOf(ProtocolError);
    expect(lines.slice(5)).toEqual([
      'requestState requestState: mcp-resolve: 195 more like this in the last 10 s: requestState rejected',
      'tools/call requestState: requestState rejected on tools/call: tampered',
    ]);
  });
});

describe('createLogLimiter', () => {
  it('writes the summary at the end of an interval with counted lines, even when nothing follows', () => {
    const lines: string[] = [];
    const scheduled: Array<() => void> = [];
    const log = createLogLimiter((line) => void lines.push(line), {
      now: () => 0,
      linesPerInterval: 2,
      schedule: (run) => void scheduled.push(run),
    });
    for (let i = 0; i < 7; i++) log('client left', `line ${i}`);
    log('other', 'other 0');
    expect(lines).toEqual(['line 0', 'line 1', 'other 0']);
    expect(scheduled).toHaveLength(1);
    scheduled[0]?.();
    expect(lines.at(-1)).toBe('mcp-resolve: 5 more like this in the last 10 s: client left');
  });
});

describe('calls whose client left, through the default error hook', () => {
  it('write 5 lines, then count the rest instead of a line per call', async () => {
    const { SdkError, SdkErrorCode } = await import('@modelcontextprotocol/server');
    const { logFailure } = await import('../../src/round/masking.js');
    const { CLIENT_LEFT_REASON } = await import('../../src/clientLeft.js');
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
    try {
      for (let i = 0; i < 20; i++) {
        const error =
          i % 2 === 0
            ? new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed')
            : new SdkError(SdkErrorCode.RequestTimeout, CLIENT_LEFT_REASON);
        logFailure(error, { ref: `r${i}`, method: 'tools/call', name: 'ask' });
      }
      // A failure of another kind is never held back.
      logFailure(new Error('db down'), { ref: 'x', method: 'tools/call', name: 'ask' });
    } finally {
      spy.mockRestore();
    }
    expect(lines).toHaveLength(6);
    expect(lines.at(-1)).toBe("mcp-resolve: tools/call 'ask' failed [ref x]: Error: db down");
  });
});
