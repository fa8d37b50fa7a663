import { errors as undiciErrors } from 'undici';
import { apiError } from '../errors/error-registry.js';
import { ApiError } from '../errors/api-error.js';

const TIMEOUTS = new Set(['V2PROXY_DEADLINE', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** A backend that gave no usable answer, as a stable ApiError: too large or unreachable 14, too slow 4. */
export function transportError(err: unknown, maxResponseBytes: number, backend: string): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { code?: string; name?: string };
  if (e.code === 'V2PROXY_CIRCUIT_OPEN') {
    return apiError('BACKEND_CIRCUIT_OPEN', { backend });
  }
  if (e.code === 'V2PROXY_ATTEMPT_TIMEOUT') {
    return apiError('BACKEND_HANGS', { backend, reason: (err as Error).message });
  }
  if (e.code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    return apiError('BACKEND_ANSWER_TOO_LARGE', { backend, limit: maxResponseBytes });
  }
  if (TIMEOUTS.has(e.code ?? '') || e.name === 'TimeoutError' || err instanceof undiciErrors.RequestAbortedError) {
    return apiError('BACKEND_TIMEOUT', { backend });
  }
  return apiError('BACKEND_UNREACHABLE', { backend });
}
