/**
 * ReplayGuardObject over the in-process storage model with a fake clock: single use until the
 * id's expiry, the alarm that sweeps expired ids in bounded batches, and refused malformed checks.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ReplayGuardObject } from 'mcp-resolve/workers';

import type { ModelStorage } from './durableObjectHarness.js';
import { modelStorage } from './durableObjectHarness.js';

const T0 = 1_800_000_000_000;

function check(object: ReplayGuardObject, body: unknown, init: RequestInit = {}): Promise<Response> {
  return object.fetch(
    new Request('https://replay-guard/consume', { method: 'POST', body: JSON.stringify(body), ...init }),
  );
}

async function first(object: ReplayGuardObject, id: string, expiresAt: number): Promise<boolean> {
  const response = await check(object, { id, expiresAt });
  return ((await response.json()) as { first: boolean }).first;
}

let storage: ModelStorage;
let object: ReplayGuardObject;

/** The alarm goes off: the runtime unsets it and calls the object's handler. */
async function ring(): Promise<void> {
  storage.alarmWentOff();
  await object.alarm();
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  storage = modelStorage();
  object = new ReplayGuardObject({ storage });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ReplayGuardObject', () => {
  it('accepts an id once until its expiry, then again', async () => {
    expect(await first(object, 'a', T0 + 1_000)).toBe(true);
    expect(await first(object, 'a', T0 + 1_000)).toBe(false);
    vi.setSystemTime(T0 + 1_000);
    expect(await first(object, 'a', T0 + 5_000)).toBe(true);
    expect(await first(object, 'a', T0 + 5_000)).toBe(false);
  });

  it('writes nothing for an id already past its expiry', async () => {
    expect(await first(object, 'late', T0)).toBe(true);
    expect(storage.keys()).toEqual([]);
    expect(await storage.getAlarm()).toBeNull();
  });

  it('keeps a record and an expiry index entry per id, with the alarm at the earliest expiry', async () => {
    await first(object, 'b', T0 + 2_000);
    await first(object, 'a', T0 + 1_000);
    await first(object, 'c', T0 + 3_000);
    expect(storage.keys()).toEqual([
      'e:001800000001000:a',
      'e:001800000002000:b',
      'e:001800000003000:c',
      't:a',
      't:b',
      't:c',
    ]);
    expect(await storage.getAlarm()).toBe(T0 + 1_000);
  });

  it('its alarm deletes the expired ids and sets itself at the next expiry; with none left, no alarm', async () => {
    await first(object, 'a', T0 + 1_000);
    await first(object, 'b', T0 + 1_000);
    await first(object, 'c', T0 + 3_000);
    vi.setSystemTime(T0 + 1_000);
    await ring();
    expect(storage.keys()).toEqual(['e:001800000003000:c', 't:c']);
    expect(await storage.getAlarm()).toBe(T0 + 3_000);
    vi.setSystemTime(T0 + 3_000);
    await ring();
    expect(storage.keys()).toEqual([]);
    expect(await storage.getAlarm()).toBeNull();
  });

  it('sweeps at most 1,024 ids per alarm and sets the next alarm now when more are expired', async () => {
    for (let index = 0; index < 1_500; index += 1) await first(object, `id-${index}`, T0 + 1_000);
    vi.setSystemTime(T0 + 1_000);
    await ring();
    expect(storage.keys()).toHaveLength(2 * (1_500 - 1_024));
    expect(await storage.getAlarm()).toBe(T0 + 1_000);
    await ring();
    expect(storage.keys()).toEqual([]);
    expect(await storage.getAlarm()).toBeNull();
  });

  it('an id used again after its expiry, before the sweep, keeps its new record', async () => {
    await first(object, 'a', T0 + 1_000);
    vi.setSystemTime(T0 + 2_000);
    expect(await first(object, 'a', T0 + 9_000)).toBe(true);
    await ring();
    expect(storage.keys()).toEqual(['e:001800000009000:a', 't:a']);
    expect(await first(object, 'a', T0 + 9_000)).toBe(false);
  });

  it('answers 400 to a malformed check, 405 to another method, 404 to another path', async () => {
    const malformed = [
      { id: '', expiresAt: T0 },
      { id: 'x'.repeat(129), expiresAt: T0 },
      { id: 'a', expiresAt: 1.5 },
      { id: 'a', expiresAt: -1 },
      { id: 7, expiresAt: T0 },
      'not an object',
    ];
    for (const body of malformed) {
      const response = await check(object, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'expected {"id": a string of 1 to 128 characters, "expiresAt": ms since the epoch}',
      });
    }
    expect((await check(object, {}, { body: '{not json' })).status).toBe(400);
    expect((await object.fetch(new Request('https://replay-guard/consume'))).status).toBe(405);
    expect((await object.fetch(new Request('https://replay-guard/other', { method: 'POST' }))).status).toBe(404);
    expect(storage.keys()).toEqual([]);
  });
});
