import type { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/error-registry.js';
import { GrpcCode, isGrpcCode } from '../errors/grpc-codes.js';
import { isObject } from '../json/json-path.js';

/**
 * A v1 error answer as an ApiError: the gateway code is kept and the message carried over (the
 * renderer prefixes it and builds the details). An answer that is not a gateway status is UNAVAILABLE.
 */
export function v1ErrorToApiError(status: number, body: unknown): ApiError {
  if (isObject(body) && isGrpcCode(body.code) && body.code !== GrpcCode.OK) {
    const message = typeof body.message === 'string' && body.message !== '' ? body.message : `v1 answered HTTP ${status}`;
    // v1 validation texts start with the field they are about ("name must match …").
    const field = body.code === GrpcCode.INVALID_ARGUMENT ? /^([a-z][A-Za-z_]*) (?:must|is) /.exec(message)?.[1] : undefined;
    return apiError('V1_REFUSED', { message }, field ? { fieldViolations: [{ field, description: message }] } : {}, body.code);
  }
  return apiError('V1_NO_STATUS_BODY', { status });
}
