import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';

/** The NOT_FOUND of a path no route serves (the query is not part of the message). */
export function noRoute(req: { method: string; url: string }): ApiError {
  return new ApiError(GrpcCode.NOT_FOUND, `no route for ${req.method} ${req.url.split('?', 1)[0]}`);
}
