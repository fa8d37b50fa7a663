import { errors as undiciErrors } from 'undici';
import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';

const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** A backend that gave no usable answer, as a stable ApiError: too large or unreachable 14, too slow 4. */
export function transportError(err: unknown, maxResponseBytes: number, backend: string): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { code?: string; name?: string };
  if (e.code === 'V2PROXY_CIRCUIT_OPEN') {
    return new ApiError(GrpcCode.UNAVAILABLE, `${backend} is failing; calls are paused for a moment (circuit open)`);
  }
  if (e.code === 'V2PROXY_ATTEMPT_TIMEOUT') {
    return new ApiError(GrpcCode.UNAVAILABLE, `${backend} does not answer (${(err as Error).message})`);
  }
  if (e.code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    return new ApiError(GrpcCode.UNAVAILABLE, `${backend} sent more than ${maxResponseBytes} bytes`);
  }
  if (TIMEOUTS.has(e.code ?? '') || e.name === 'TimeoutError' || err instanceof undiciErrors.RequestAbortedError) {
    return new ApiError(GrpcCode.DEADLINE_EXCEEDED, `${backend} did not answer in time`);
  }
  return new ApiError(GrpcCode.UNAVAILABLE, `${backend} is unreachable`);
}
