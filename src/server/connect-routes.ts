import type { DescService } from '@bufbuild/protobuf';
import { type ConnectError, type ConnectRouter, type ContextValues, createConnectRouter } from '@connectrpc/connect';
import { compressionBrotli, compressionGzip, universalRequestFromNodeRequest, universalResponseToNodeResponse } from '@connectrpc/connect-node';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { answerHead, type RequestCall } from '../exchange/request-call.js';
import type { ApiError } from '../errors/api-error.js';
import { checkedBody } from './grpc-message-check.js';

export interface ConnectRoutesOptions {
  routes: (router: ConnectRouter) => void;
  contextValues: (req: FastifyRequest) => ContextValues;
  /** the largest message, in bytes (after decompression) */
  readMaxBytes: number;
  /** aborts every call still running when the drain's time is up */
  shutdownSignal: AbortSignal;
  /** an error of the registry as a call's status (the service picks the domain) */
  statusOf: (service: DescService, err: ApiError) => ConnectError;
  /** each call's route opens its call in the lifecycle, named for its procedure */
  opener: (path: string) => onRequestHookHandler;
  /** the call's answer is rendered (connect writes it without fastify's send) */
  rendered: (req: FastifyRequest, reply: FastifyReply) => void;
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
 * and the call's status on its log line and count.
 */
export async function registerConnectRoutes(app: FastifyInstance, opts: ConnectRoutesOptions): Promise<void> {
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
      const onRequest = opts.opener(procedure.requestPath);
      scope.all(procedure.requestPath, { onRequest }, async (req, reply) => {
        const call = req.call as RequestCall;
        const request = universalRequestFromNodeRequest(req.raw, reply.raw, undefined, opts.contextValues(req));
        const answer = await procedure({ ...request, body: checkedBody(request.body as AsyncIterable<Uint8Array>, request.header, check) });
        // connect writes the answer itself: its head gets the answer's headers here
        const head = answerHead(call);
        for (const name in head) reply.raw.setHeader(name, head[name] as string);
        // the call's status is final once its body is out, before the answer ends (and is logged)
        const statusIn = (headers: Headers | undefined) => {
          const status = headers?.get('grpc-status');
          if (status !== null && status !== undefined) call.grpcCode = Number(status);
        };
        statusIn(answer.header);
        opts.rendered(req, reply);
        const settled = () => statusIn(answer.trailer);
        try {
          await universalResponseToNodeResponse(answer.body ? { ...answer, body: statusAfter(answer.body, settled) } : answer, reply.raw);
        } catch {
          // the client left mid-answer: nobody to tell
        }
      });
    }
  });
}
