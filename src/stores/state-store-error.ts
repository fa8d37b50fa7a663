import { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/error-registry.js';
import { failureOf } from './open-redis.js';

/** A Redis command that failed (down, stalled past REDIS_TIMEOUT_MS) as the retryable 503 of the registry. */
export function stateStoreError(err: unknown): ApiError {
  return err instanceof ApiError ? err : apiError('STATE_STORE_UNAVAILABLE', { reason: failureOf(err) });
}

/**
 * Runs a command that takes something (a write lock, an Idempotency-Key claim). One whose answer did
 * not come is undone right behind it on the same connection: Redis runs a connection's commands in
 * order, so a take it runs late (a stall, then the wake) is undone by the next command it runs. The
 * failure is STATE_STORE_UNAVAILABLE.
 */
export async function takenOrUndone<T>(take: () => Promise<T>, undo: () => Promise<unknown>): Promise<T> {
  try {
    return await take();
  } catch (err) {
    void undo().catch(() => undefined);
    throw stateStoreError(err);
  }
}

/** Runs Redis commands; a failure becomes STATE_STORE_UNAVAILABLE (never a 500). */
export async function onRedis<T>(commands: () => Promise<T>): Promise<T> {
  try {
    return await commands();
  } catch (err) {
    throw stateStoreError(err);
  }
}
