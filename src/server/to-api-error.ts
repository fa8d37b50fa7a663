import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';

/** Maps whatever was thrown to an ApiError; anything unforeseen is INTERNAL (and logged by the caller). */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string };
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(GrpcCode.RESOURCE_EXHAUSTED, 'request body is larger than the configured limit');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(GrpcCode.INVALID_ARGUMENT, 'unsupported Content-Type: send application/json');
    default:
      break;
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ApiError(GrpcCode.INVALID_ARGUMENT, e.message ?? 'bad request');
  }
  return new ApiError(GrpcCode.INTERNAL, 'the proxy failed to handle the request');
}
