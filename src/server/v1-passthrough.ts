import type http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { renderError } from '../errors/render-error.js';
import { transportError } from '../upstream/transport-error.js';
import type { V1Origin } from '../upstream/v1-origin.js';
import type { RequestLine } from './one-line-request-log.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import { type ErrorReply, sendError } from './send-error.js';

const BACKEND = 'the v1 backend';

export const V1_PREFIXES = ['/iam/v1', '/registry/v1', '/vulnerabilities/v1'] as const;

/** A failed hop to v1 (refused, reset, too slow) answers as the gateway would: 503 code 14 or 504 code 4. */
function upstreamFailure(reply: ErrorReply, err: unknown, maxResponseBytes: number): void {
  sendError(reply, transportError(err, maxResponseBytes, BACKEND));
}

// headers of one connection, not of the message: never passed on either way
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'host',
]);

function messageHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name) && name.charCodeAt(0) !== 0x3a) out[name] = value;
  }
  return out;
}

/**
 * v1 paths go to the v1 backend unchanged (method, path, query, body, Authorization and the other
 * message headers, plus the request id) and come back unchanged (status, headers, body streamed),
 * through the shared v1 dispatcher: it retries reads (connection failures, 502/503/504) and holds
 * the breaker; v1's last answer, 503 included, comes back as it is. One undici call per request,
 * nothing else: the passthrough is the path of every route a team has not migrated yet.
 */
export async function registerV1Passthrough(app: FastifyInstance, v1: V1Origin, dispatcher: Dispatcher, maxResponseBytes: number): Promise<void> {
  // Its own scope, where a body of any type is read whole (bounded by BODY_LIMIT) before it goes on:
  // a v1 that answers early (a 413/429 for a large body) and closes would otherwise break the
  // still-streaming upload (EPIPE) and its answer would be lost behind a 503.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    const passOn = async (req: FastifyRequest, reply: FastifyReply) => {
      const headers = messageHeaders(req.headers);
      headers[REQUEST_ID_HEADER] = req.id;
      let answer: Dispatcher.ResponseData;
      try {
        answer = await dispatcher.request({
          method: req.method as Dispatcher.HttpMethod,
          path: `${v1.basePath}${req.url}`,
          headers,
          body: (req.body as Buffer | undefined) ?? null,
        });
      } catch (err) {
        upstreamFailure(reply as unknown as ErrorReply, err, maxResponseBytes);
        return reply;
      }
      // an answer cut short after it started cannot be turned into an error any more: the connection ends
      answer.body.on('error', () => reply.raw.destroy());
      return reply.code(answer.statusCode).headers(messageHeaders(answer.headers)).send(answer.body);
    };
    for (const prefix of V1_PREFIXES) {
      scope.all(prefix, passOn);
      scope.all(`${prefix}/*`, passOn);
    }
  });
}

export interface V1ReadsDeps {
  v1: V1Origin;
  dispatcher: Dispatcher;
  maxResponseBytes: number;
  /** the request's log line */
  logged: (line: RequestLine) => void;
}

/** Whether a URL is under one of the v1 prefixes, as the passthrough's routes match them. */
function underV1(url: string): boolean {
  for (const prefix of V1_PREFIXES) {
    if (url.startsWith(prefix)) {
      const next = url.charCodeAt(prefix.length);
      // the prefix itself, or followed by a path or a query
      if (Number.isNaN(next) || next === 0x2f || next === 0x3f) return true;
    }
  }
  return false;
}

/**
 * v1 reads (GET and HEAD without a body, over HTTP/1.1) passed on straight from Node's request to one
 * undici call and back, before any framework work: the same request to v1 (its headers, the request
 * id) and the same answer, error shape, `x-request-id` and log line as the passthrough's routes,
 * which keep everything else (writes, whose bodies are read whole first; HTTP/2). Returns whether it
 * took the request.
 */
export function v1Reads(deps: V1ReadsDeps): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  return (req, res) => {
    const { method, url, headers } = req;
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined || req.httpVersionMajor !== 1 || !underV1(url)) return false;
    const length = headers['content-length'];
    if ((length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined) return false;
    void passOn(deps, req, res, url, method);
    return true;
  };
}

async function passOn(deps: V1ReadsDeps, req: http.IncomingMessage, res: http.ServerResponse, url: string, method: 'GET' | 'HEAD'): Promise<void> {
  const startedAt = performance.now();
  const id = requestIdOf(req);
  const sent = messageHeaders(req.headers);
  sent[REQUEST_ID_HEADER] = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  // the line is written once the answer is out (or the client is gone)
  res.once('close', () =>
    deps.logged({
      id,
      method,
      url,
      host: req.headers.host,
      remoteAddress: req.socket.remoteAddress,
      remotePort: req.socket.remotePort,
      statusCode: res.statusCode,
      responseTime: performance.now() - startedAt,
    }),
  );
  let answer: Dispatcher.ResponseData;
  try {
    answer = await deps.dispatcher.request({ method, path: `${deps.v1.basePath}${url}`, headers: sent, body: null });
  } catch (err) {
    const { status, body } = renderError(transportError(err, deps.maxResponseBytes, BACKEND), url);
    const text = JSON.stringify(body);
    if (!res.headersSent && !res.destroyed)
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) }).end(text);
    return;
  }
  res.writeHead(answer.statusCode, messageHeaders(answer.headers));
  // piped by hand: stream/promises' pipeline makes an AbortController (and a DOMException) per call
  const { body } = answer;
  // cut short after it started (v1's answer broke off): the connection ends, nothing to tell
  body.once('error', () => res.destroy());
  // the client left: the rest of v1's answer is not read
  res.once('close', () => {
    if (!body.readableEnded) body.destroy();
  });
  body.pipe(res);
}
