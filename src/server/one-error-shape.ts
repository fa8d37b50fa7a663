import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../errors/error-registry.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import { toApiError } from '../errors/to-api-error.js';
import { noRoute } from './no-route.js';
import { REQUEST_ID_HEADER } from './request-id.js';
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
 * What every answer of a listener carries, written once: its request id, `nosniff` (no answer of
 * this origin is read as anything but its declared type: backends' bodies pass through it), and
 * any error, an unknown path's included, in the one shape; a bug is logged with the request.
 */
export function answerInOneShape(app: FastifyInstance): void {
  // a callback hook: no promise per request
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
  app.setErrorHandler((err, req, reply) => {
    const error = toApiError(err);
    if (error.code === GrpcCode.INTERNAL) req.log.error({ err }, 'request failed');
    return sendError(reply, error);
  });
  app.setNotFoundHandler((req, reply) => sendError(reply, noRoute(req)));
}
