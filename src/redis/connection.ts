/**
 * Connecting to Redis with the official `redis` package (node-redis): it is maintained by Redis
 * itself, speaks RESP3, ships its own types, and supports per-client command timeouts, which the
 * fail-closed replay check relies on.
 */
import type { RedisClientType } from 'redis';
import { createClient } from 'redis';

import { McpResolveError } from '../errors.js';

/** A connected node-redis client as this entry uses it. */
export type RedisConnection = RedisClientType;

/** Options of {@link connectRedis}. */
export interface RedisConnectOptions {
  /** How long one command may wait for Redis before it fails, in ms (default 2,000). */
  readonly commandTimeoutMs?: number;
  /** How long the first connection may take, in ms (default 5,000). */
  readonly connectTimeoutMs?: number;
  /** Receives connection errors after the first connect (reconnects are automatic). */
  readonly onerror?: (error: Error) => void;
}

/** The default command timeout: long enough for a loaded Redis, short enough that a lost one fails a round quickly. */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 2_000;

/**
 * Settles with `operation`, or rejects after `ms` when Redis has not answered. node-redis times out
 * only commands still queued; a command already written to a Redis that stopped answering would
 * wait for the connection to reset, so every call this entry makes carries its own deadline.
 */
export async function withDeadline<T>(operation: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([operation, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Redacts the password of a Redis URL for messages. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.href;
  } catch {
    return JSON.stringify(url);
  }
}

/**
 * Connects a client to `url`; throws {@link McpResolveError} (`redis_unavailable`) naming the URL
 * when Redis cannot be reached. Commands never wait in an offline queue: while Redis is away they
 * fail at once, so nothing hangs on a lost connection.
 */
export async function connectRedis(url: string, options: RedisConnectOptions = {}): Promise<RedisConnection> {
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const connectTimeout = options.connectTimeoutMs ?? 5_000;
  const client: RedisConnection = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: commandTimeoutMs },
    socket: { connectTimeout, reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 1_000) },
  });
  let firstError: Error | undefined;
  client.on('error', (error: Error) => {
    firstError ??= error;
    options.onerror?.(error);
  });
  const connecting = client.connect();
  const timeout = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => reject(firstError ?? new Error('connect timeout')), connectTimeout);
    timer.unref?.();
    void connecting.finally(() => clearTimeout(timer)).catch(() => {});
  });
  try {
    await Promise.race([connecting, timeout]);
  } catch (error) {
    client.destroy();
    const reason = error instanceof Error ? error.message : String(error);
    throw new McpResolveError(
      'redis_unavailable',
      `Cannot connect to Redis at ${describeRedisUrl(url)}: ${reason}. Start redis-server or fix the URL (--redis / REDIS_URL).`,
    );
  }
  return client;
}
