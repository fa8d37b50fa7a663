import { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/error-registry.js';
import { failureOf } from './open-redis.js';

/** A Redis command that failed (down, stalled past REDIS_TIMEOUT_MS) as the retryable 503 of the registry. */
export function stateStoreError(err: unknown): ApiError {
  return err instanceof ApiError ? err : apiError('STATE_STORE_UNAVAILABLE', { reason: failureOf(err) });
}

/** Runs Redis commands; a failure becomes STATE_STORE_UNAVAILABLE (never a 500). */
export async function onRedis<T>(commands: () => Promise<T>): Promise<T> {
  try {
    return await commands();
  } catch (err) {
    throw stateStoreError(err);
  }
}
