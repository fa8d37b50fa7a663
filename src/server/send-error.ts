import type { ApiError } from '../errors/api-error.js';
import { renderError } from '../errors/render-error.js';

/** The part of a fastify reply an error needs (structural, so http1 and http2 replies both fit). */
export interface ErrorReply {
  request: { url: string };
  status(code: number): ErrorReply;
  type(contentType: string): ErrorReply;
  header(name: string, value: string): ErrorReply;
  send(body: unknown): unknown;
}

export function sendError(reply: ErrorReply, err: ApiError): unknown {
  const { status, body, allow } = renderError(err, reply.request.url);
  if (allow) reply.header('allow', allow);
  return reply.status(status).type('application/json').send(body);
}
