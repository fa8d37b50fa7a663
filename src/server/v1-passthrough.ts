import proxy from '@fastify/http-proxy';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import type { V1Origin } from '../upstream/v1-origin.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { type ErrorReply, sendError } from './send-error.js';

export const V1_PREFIXES = ['/iam/v1', '/registry/v1', '/vulnerabilities/v1'] as const;

/** A failed hop to v1 (refused, reset, too slow) answers as the gateway would: 503 code 14 or 504 code 4. */
function upstreamFailure(reply: ErrorReply, failure: { error: Error }): void {
  const e = failure.error as Error & { code?: string; statusCode?: number };
  const timedOut = e.statusCode === 504 || /TIMEOUT/i.test(e.code ?? '');
  const err = timedOut
    ? new ApiError(GrpcCode.DEADLINE_EXCEEDED, 'the v1 backend did not answer in time')
    : new ApiError(GrpcCode.UNAVAILABLE, 'the v1 backend is unreachable');
  sendError(reply, err);
}

/** v1 paths go to the v1 backend unchanged (method, path, query, body, Authorization) and come back unchanged. */
export async function registerV1Passthrough(app: FastifyInstance, v1: V1Origin, timeoutMs: number): Promise<void> {
  // its own scope: the proxy plugin streams bodies with its own parsers, not the v2 JSON parser
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    await registerPrefixes(scope, v1, timeoutMs);
  });
}

async function registerPrefixes(app: FastifyInstance, v1: V1Origin, timeoutMs: number): Promise<void> {
  for (const prefix of V1_PREFIXES) {
    await app.register(proxy, {
      upstream: v1.origin,
      prefix,
      rewritePrefix: `${v1.basePath}${prefix}`,
      // No retries: a v1 answer, 503 included, is passed back as it is.
      retryMethods: [],
      undici: { connections: 64, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
      replyOptions: {
        onError: upstreamFailure,
        rewriteRequestHeaders: (req, headers) => ({ ...headers, [REQUEST_ID_HEADER]: req.id }),
      },
    });
  }
}
