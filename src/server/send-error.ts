import type { ApiError } from '../errors/api-error.js';
import { renderError } from '../errors/render-error.js';

/** The part of a fastify reply an error needs (structural, so http1 and http2 replies both fit). */
export interface ErrorReply {
  request: { url: string };
  status(code: number): ErrorReply;
  type(contentType: string): ErrorReply;
  send(body: unknown): unknown;
}

export function sendError(reply: ErrorReply, err: ApiError): unknown {
  const { status, body } = renderError(err, reply.request.url);
  return reply.status(status).type('application/json').send(body);
}
