import { ApiError } from './api-error.js';
import { apiError } from './error-registry.js';

/** Maps whatever was thrown to an ApiError; anything unforeseen is INTERNAL (and logged by the caller). */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string };
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return apiError('BODY_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return apiError('UNSUPPORTED_CONTENT_TYPE');
    default:
      break;
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return apiError('BAD_REQUEST', { reason: e.message ?? 'bad request' });
  }
  return apiError('INTERNAL');
}
