import type { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/error-registry.js';

/** The NOT_FOUND of a path no route serves (the query is not part of the message). */
export function noRoute(req: { method: string; url: string }): ApiError {
  return apiError('NO_ROUTE', { method: req.method, path: req.url.split('?', 1)[0] as string });
}
