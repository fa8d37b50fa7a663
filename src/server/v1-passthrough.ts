import proxy from '@fastify/http-proxy';
import { apiError } from '../errors/error-registry.js';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Dispatcher } from 'undici';
import { transportError } from '../upstream/transport-error.js';
import type { V1Origin } from '../upstream/v1-origin.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { type ErrorReply, sendError } from './send-error.js';

const BACKEND = 'the v1 backend';

export const V1_PREFIXES = ['/iam/v1', '/registry/v1', '/vulnerabilities/v1'] as const;

/** A failed hop to v1 (refused, reset, too slow) answers as the gateway would: 503 code 14 or 504 code 4. */
function upstreamFailure(reply: ErrorReply, failure: { error: Error }, maxResponseBytes: number): void {
  const e = failure.error as Error & { statusCode?: number; cause?: unknown };
  // reply-from answers undici's own timeouts as a 504 and wraps every other error, ours included
  const err = e.statusCode === 504 ? apiError('BACKEND_TIMEOUT', { backend: BACKEND }) : transportError(e.cause ?? e, maxResponseBytes, BACKEND);
  sendError(reply, err);
}

/** v1 paths go to the v1 backend unchanged (method, path, query, body, Authorization) and come back unchanged. */
export async function registerV1Passthrough(app: FastifyInstance, v1: V1Origin, dispatcher: Dispatcher, maxResponseBytes: number): Promise<void> {
  // Its own scope, where a body of any type is read whole (bounded by BODY_LIMIT) before it goes on:
  // a v1 that answers early (a 413/429 for a large body) and closes would otherwise break the
  // still-streaming upload (EPIPE) and its answer would be lost behind a 503.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // handed on as a one-chunk stream, so the plugin sends the bytes and headers as they came
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, Readable.from([body])));
    await registerPrefixes(scope, v1, dispatcher, maxResponseBytes);
  });
}

async function registerPrefixes(app: FastifyInstance, v1: V1Origin, dispatcher: Dispatcher, maxResponseBytes: number): Promise<void> {
  for (const prefix of V1_PREFIXES) {
    await app.register(proxy, {
      upstream: v1.origin,
      prefix,
      rewritePrefix: `${v1.basePath}${prefix}`,
      // The shared v1 dispatcher retries reads (connection failures, 502/503/504) and holds the
      // breaker; the plugin's own retry stays off, and v1's last answer, 503 included, comes back as it is.
      retryMethods: [],
      proxyPayloads: false,
      // the request's one log line is enough; reply-from would add two more per passthrough
      disableRequestLogging: true,
      undici: dispatcher as never,
      replyOptions: {
        onError: (reply, failure) => upstreamFailure(reply, failure, maxResponseBytes),
        rewriteRequestHeaders: (req, headers) => ({ ...headers, [REQUEST_ID_HEADER]: req.id }),
      },
    });
  }
}
