import { Redis } from 'ioredis';

export interface RedisEvents {
  /** Redis became unreachable (said once until it is back), without the URL: it may hold a password */
  down(message: string): void;
  /** Redis answers again */
  up(): void;
}

/**
 * The Redis connection of the shared state. It never holds a request up: a command fails at once
 * while Redis is unreachable (no offline queue, nothing resent after a drop) and after `timeoutMs`
 * when Redis stalls, and the connection is retried in the background forever, so a replica starts
 * while Redis is down (not ready) and recovers by itself when it returns.
 */
export function openRedis(url: string, timeoutMs: number, events: RedisEvents): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(1_000, timeoutMs),
    // reconnect with a short backoff, never giving up
    retryStrategy: (times) => Math.min(50 * times, 1_000),
  });
  let down = false;
  redis.on('error', (err: Error & { code?: string }) => {
    if (down) return;
    down = true;
    events.down(`Redis: ${err.code ?? err.message}`);
  });
  redis.on('ready', () => {
    if (down) events.up();
    down = false;
  });
  // failures are reported through 'error' (and keep being retried)
  redis.connect().catch(() => undefined);
  return redis;
}

/** Resolves once the connection is ready, or after `ms` (whatever its state then). */
export function redisConnected(redis: Redis, ms: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
  });
}

/** Whether Redis answers a PING now (within the command timeout): part of readiness. */
export async function redisAnswers(redis: Redis): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (redis.status !== 'ready') return { ok: false, reason: `not connected (${redis.status})` };
  try {
    await redis.ping();
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: failureOf(err) };
  }
}

/** A short reason for a failed command: it timed out, or there is no connection (and why). */
export function failureOf(err: unknown): string {
  const e = err as { message?: string; code?: string };
  if (/timed out/i.test(e.message ?? '')) return 'no answer in time';
  // a command the connection dropped under ends with ioredis's retry limit (none are resent)
  if (/enableOfflineQueue|Connection is closed|writeable|max retries per request/i.test(e.message ?? '')) return 'not connected';
  return e.code ?? e.message ?? 'failed';
}
