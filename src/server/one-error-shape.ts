import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../errors/error-registry.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import { toApiError } from '../errors/to-api-error.js';
import { noRoute } from './no-route.js';
import { REQUEST_ID_HEADER } from '../exchange/request-id.js';
import { type ErrorReply, sendError } from './send-error.js';

/**
 * A URL fastify cannot even decode still answers in the one error shape (no hooks run for these,
 * so the request id is set here). Its reply is typed with unresolved route generics, hence the cast.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  reply.header(REQUEST_ID_HEADER, req.id);
  sendError(reply as unknown as ErrorReply, apiError('MALFORMED_REQUEST', { reason: err.message }));
}

/**
 * Any error of a listener's routes, an unknown path's included, answered in the one shape; a bug
 * is the request's failure, logged with its line.
 */
export function answerInOneShape(app: FastifyInstance): void {
  app.setErrorHandler((err, req, reply) => {
    const error = toApiError(err);
    if (error.code === GrpcCode.INTERNAL) {
      if (req.call) req.call.failure ??= err;
      else req.log.error({ err }, 'request failed');
    }
    return sendError(reply, error);
  });
  app.setNotFoundHandler((req, reply) => sendError(reply, noRoute(req)));
}
