import { randomUUID } from 'node:crypto';
import { apiError, httpStatusOfEntry } from '../errors/error-registry.js';
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { ApiError } from '../errors/api-error.js';
import { renderError } from '../errors/render-error.js';
import { REQUEST_ID_HEADER } from '../exchange/request-id.js';

/** What Node's HTTP parser refused, as a status and an error in the one shape. */
function classify(code: string | undefined): { status: number; error: ApiError } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: httpStatusOfEntry('REQUEST_TIMEOUT'), error: apiError('REQUEST_TIMEOUT') };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: httpStatusOfEntry('HEADERS_TOO_LARGE'), error: apiError('HEADERS_TOO_LARGE') };
  }
  if (code === 'HPE_INVALID_METHOD') return { status: 400, error: apiError('MALFORMED_REQUEST', { reason: 'unknown HTTP method' }) };
  return { status: 400, error: apiError('MALFORMED_REQUEST', { reason: 'the HTTP request could not be parsed' }) };
}

/**
 * Errors of the HTTP parser layer (before any route runs: an unknown method, a bad chunked body, a
 * NUL in a header, headers over the limit, a request too slow to arrive) answered in the one error
 * shape, with an `x-request-id`, like every other answer.
 */
export function clientErrorHandler(this: { log: FastifyBaseLogger }, err: Error & { code?: string }, socket: Socket): void {
  // a reset connection has nobody left to answer
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, error } = classify(err.code);
  const id = randomUUID();
  this.log.debug({ err, reqId: id }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(renderError(error, '/').body);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${REQUEST_ID_HEADER}: ${id}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * An HTTP/1.1 request without `Host` (which HTTP/1.1 requires): answered 400 in the one error shape
 * and its connection closed, before any route sees it. Returns whether it was refused.
 */
export function refusedWithoutHost(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.headers.host !== undefined || req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1) return false;
  const body = JSON.stringify(renderError(apiError('MALFORMED_REQUEST', { reason: 'an HTTP/1.1 request needs a Host header' }), '/').body);
  res.shouldKeepAlive = false;
  res
    .writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), [REQUEST_ID_HEADER]: randomUUID() })
    .end(body);
  // what the request still sends is not read
  req.resume();
  return true;
}
