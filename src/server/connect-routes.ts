import type { DescService } from '@bufbuild/protobuf';
import { type ConnectError, type ConnectRouter, type ContextValues, createConnectRouter } from '@connectrpc/connect';
import { compressionBrotli, compressionGzip, universalRequestFromNodeRequest, universalResponseToNodeResponse } from '@connectrpc/connect-node';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiError } from '../errors/api-error.js';
import { checkedBody } from './grpc-message-check.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the status a gRPC call ended with (its HTTP status is 200 either way), for its log line */
    rpcStatus: string | undefined;
  }
}

export interface ConnectRoutesOptions {
  routes: (router: ConnectRouter) => void;
  contextValues: (req: FastifyRequest) => ContextValues;
  /** the largest message, in bytes (after decompression) */
  readMaxBytes: number;
  /** aborts every call still running when the drain's time is up */
  shutdownSignal: AbortSignal;
  /** an error of the registry as a call's status (the service picks the domain) */
  statusOf: (service: DescService, err: ApiError) => ConnectError;
  /** a call whose message was refused before connect read it (too large, broken): counted as every answer is */
  refused: (path: string, err: ApiError, startedAt: number, requestId: string) => void;
}

const COMPRESSIONS = [compressionGzip, compressionBrotli];

/** The body as it is, calling `done` once it has all been read (the trailers are set then). */
async function* statusAfter(body: AsyncIterable<Uint8Array>, done: () => void): AsyncGenerator<Uint8Array> {
  try {
    yield* body;
  } finally {
    done();
  }
}

/**
 * gRPC, gRPC-Web and Connect on the REST port: connect's router and node adapters, each procedure a
 * fastify route in a scope of its own (its catch-all body parser stays there). Written out rather
 * than taken from @connectrpc/connect-fastify for what that plugin leaves out: each request message checked
 * before connect reads it (size at once, protobuf validity as INVALID_ARGUMENT), the drain's signal,
 * and the call's status on its log line.
 */
export async function registerConnectRoutes(app: FastifyInstance, opts: ConnectRoutesOptions): Promise<void> {
  app.decorateRequest('rpcStatus', undefined);
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // connect reads (and checks) the body itself
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const router = createConnectRouter({ readMaxBytes: opts.readMaxBytes, shutdownSignal: opts.shutdownSignal, acceptCompression: COMPRESSIONS });
    opts.routes(router);
    for (const procedure of router.handlers) {
      const check = {
        input: procedure.method.input,
        limit: opts.readMaxBytes,
        compressions: COMPRESSIONS,
        statusOf: (err: ApiError) => opts.statusOf(procedure.service, err),
      };
      scope.all(procedure.requestPath, async (req, reply) => {
        const startedAt = performance.now() - reply.elapsedTime;
        const checked = {
          ...check,
          statusOf: (err: ApiError) => {
            opts.refused(procedure.requestPath, err, startedAt, req.id);
            return check.statusOf(err);
          },
        };
        const request = universalRequestFromNodeRequest(req.raw, reply.raw, undefined, opts.contextValues(req));
        const answer = await procedure({ ...request, body: checkedBody(request.body as AsyncIterable<Uint8Array>, request.header, checked) });
        // headers set on the reply (x-request-id) go out with the answer connect writes
        for (const [key, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(key, value);
        // the call's status is final once its body is out, before the answer ends (and is logged)
        req.rpcStatus = answer.header?.get('grpc-status') ?? undefined;
        const settled = () => {
          req.rpcStatus = answer.trailer?.get('grpc-status') ?? req.rpcStatus;
        };
        try {
          await universalResponseToNodeResponse(answer.body ? { ...answer, body: statusAfter(answer.body, settled) } : answer, reply.raw);
        } catch {
          // the client left mid-answer: nobody to tell
        }
      });
    }
  });
}
