import { Redis } from 'ioredis';

/**
 * A Redis connection for shared state, checked with a PING at start (a bad REDIS_URL stops the
 * proxy at once rather than at the first write). Commands fail after two reconnect attempts
 * instead of queueing forever; errors are reported without the URL (it may hold a password).
 */
export async function openRedis(url: string, onError: (message: string) => void): Promise<Redis> {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 2_000, lazyConnect: true });
  let last = '';
  redis.on('error', (err: Error & { code?: string }) => {
    const message = `Redis: ${err.code ?? err.message}`;
    if (message !== last) onError(message);
    last = message;
  });
  redis.on('ready', () => {
    last = '';
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new Error(`REDIS_URL: Redis does not answer (${(err as { code?: string }).code ?? (err as Error).message})`);
  }
  return redis;
}
