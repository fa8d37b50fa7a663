import type http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AroundRequest } from '../exchange/around-request.js';
import { answerHead, RequestCall } from '../exchange/request-call.js';
import { type Dispatcher, errors } from 'undici';
import { apiError } from '../errors/error-registry.js';
import { renderError } from '../errors/render-error.js';
import { ATTR_URL_PATH } from '@opentelemetry/semantic-conventions';
import { traceIdOf, type Tracing } from '../telemetry/tracing.js';
import { upstreamServer } from '../upstream/attempt-spans.js';
import type { Abort, LegacyHandler, LifeOption } from '../upstream/backend-call.js';
import { traceContextOf } from '../upstream/trace-context.js';
import { transportError } from '../upstream/transport-error.js';
import type { V1Origin } from '../upstream/v1-origin.js';
import { REQUEST_ID_HEADER, requestIdOf } from '../exchange/request-id.js';
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

// the proxy's own headers (an override and its secret, the side asked for) are never v1's business
const OWN_HEADER = 'x-v2proxy-';

function messageHeaders(headers: Record<string, string | string[] | undefined>, own = true): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name) && name.charCodeAt(0) !== 0x3a && (own || !name.startsWith(OWN_HEADER))) out[name] = value;
  }
  return out;
}

/** A request's message headers as they go to v1: without the proxy's own, plus the request id. */
function toV1Headers(headers: Record<string, string | string[] | undefined>, requestId: string): Record<string, string | string[]> {
  const out = messageHeaders(headers, false);
  out[REQUEST_ID_HEADER] = requestId;
  return out;
}

// a `.` or `..` segment, plain or percent-encoded
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * Whether a path has a `.` or `..` segment, plain or percent-encoded: v1 (or a hop before it) may
 * resolve it to a path outside the v1 prefixes, so it is refused rather than passed on.
 */
export function hasDotSegment(url: string): boolean {
  const query = url.indexOf('?');
  return DOT_SEGMENT.test(query < 0 ? url : url.slice(0, query));
}

/**
 * v1 paths go to the v1 backend unchanged (method, path, query, body, Authorization and the other
 * message headers, plus the request id) and come back unchanged (status, headers, body streamed),
 * through the shared v1 dispatcher: it retries reads (connection failures, 502/503/504) and holds
 * the breaker; v1's last answer, 503 included, comes back as it is. One undici call per request,
 * nothing else: the passthrough is the path of every route a team has not migrated yet.
 */
export async function registerV1Passthrough(app: FastifyInstance, deps: PassthroughDeps, opener: onRequestHookHandler): Promise<void> {
  const { v1, dispatcher, maxResponseBytes } = deps;
  // Its own scope, where a body of any type is read whole (bounded by BODY_LIMIT) before it goes on:
  // a v1 that answers early (a 413/429 for a large body) and closes would otherwise break the
  // still-streaming upload (EPIPE) and its answer would be lost behind a 503.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    const passOn = async (req: FastifyRequest, reply: FastifyReply) => {
      const call = req.call as RequestCall;
      call.resource = 'v1';
      call.operation = operationOf(req.method);
      if (hasDotSegment(req.url)) {
        sendError(reply as unknown as ErrorReply, apiError('DOT_SEGMENT', { path: req.url.split('?', 1)[0] as string }));
        return reply;
      }
      const headers = toV1Headers(req.headers, req.id);
      const traced = passthroughSpans(deps, req.method, req.url, req.headers);
      call.traced = traced?.traced;
      call.clientTraceId = req.headers.traceparent === undefined ? undefined : traceIdOf(traceContextOf(req.headers));
      call.reached = true;
      let answer: Dispatcher.ResponseData;
      try {
        answer = await dispatcher.request({
          method: req.method as Dispatcher.HttpMethod,
          path: `${v1.basePath}${req.url}`,
          headers,
          body: (req.body as Buffer | undefined) ?? null,
          ...(traced ? { spans: traced.spans } : {}),
        } as Dispatcher.RequestOptions);
      } catch (err) {
        upstreamFailure(reply as unknown as ErrorReply, err, maxResponseBytes);
        return reply;
      }
      // an answer cut short after it started cannot be turned into an error any more: the connection ends
      answer.body.on('error', (err) => {
        call.broken = err;
        reply.raw.destroy();
      });
      return reply.code(answer.statusCode).headers(messageHeaders(answer.headers)).send(answer.body);
    };
    for (const prefix of V1_PREFIXES) {
      scope.all(prefix, { onRequest: opener }, passOn);
      scope.all(`${prefix}/*`, { onRequest: opener }, passOn);
    }
  });
}

/** A v1 request as it is counted: a read or a write. */
const operationOf = (method: string) => (method === 'GET' || method === 'HEAD' ? 'read' : 'write');

/** What passing v1 requests on needs, on either path. */
export interface PassthroughDeps {
  v1: V1Origin;
  dispatcher: Dispatcher;
  maxResponseBytes: number;
  /** with tracing on: a server span per request, a client span per attempt at v1 */
  tracing?: Tracing | undefined;
}

export interface V1ReadsDeps extends PassthroughDeps {
  /** what is written around every request: the read runs in it, ended once answered */
  around: AroundRequest;
}

/**
 * A traced passthrough request (tracing on, the request sampled): its server span, named for the
 * v1 prefix it went under, and the spans of its attempts at v1, each attempt's `traceparent` its own.
 */
function passthroughSpans(deps: PassthroughDeps, method: string, url: string, headers: http.IncomingHttpHeaders) {
  if (!deps.tracing) return undefined;
  const path = url.split('?', 1)[0] as string;
  const route = `${V1_PREFIXES.find((p) => path.startsWith(p)) ?? ''}/*`;
  const traced = deps.tracing.httpRequest(method, route, traceContextOf(headers), {
    [ATTR_URL_PATH]: path,
    'v2proxy.side': 'v1',
    'v2proxy.decision': 'passthrough',
  });
  if (!traced) return undefined;
  const { v1 } = deps;
  return {
    traced,
    spans: traced.call({ backend: 'v1', protocol: 'http', method, target: `${v1.origin}${v1.basePath}${path}`, server: upstreamServer(v1.origin) }),
  };
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
    // (a path with dot segments is refused by the routes)
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined || req.httpVersionMajor !== 1 || !underV1(url) || hasDotSegment(url)) return false;
    const length = headers['content-length'];
    if ((length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined) return false;
    const call = new RequestCall('v1', requestIdOf(req));
    call.resource = 'v1';
    call.operation = 'read';
    deps.around.run(call, (c) => passOn(deps, req, res, url, method, c));
    return true;
  };
}

function passOn(deps: V1ReadsDeps, req: http.IncomingMessage, res: http.ServerResponse, url: string, method: 'GET' | 'HEAD', call: RequestCall): void {
  const sent = toV1Headers(req.headers, call.requestId);
  const traced = passthroughSpans(deps, method, url, req.headers);
  const opts: Dispatcher.DispatchOptions & LifeOption = { method, path: `${deps.v1.basePath}${url}`, headers: sent, body: null };
  call.reached = true;
  if (traced) {
    opts.spans = traced.spans;
    call.traced = traced.traced;
  }
  // a refusal (an open circuit) comes back as the read's onError, like every other failure
  deps.dispatcher.dispatch(opts, new PassedOnRead(deps, req, res, url, method, call));
}

/**
 * One v1 read answered as v1's answer arrives, from undici's handler calls straight into Node's
 * response: its head with v1's message headers and the request id, each chunk written as it comes
 * (v1 is paused while the client is slow), the end. No body stream, no pipe and no promise per
 * request: this is the path of every v1 read a team has not migrated yet. The shared dispatcher
 * still retries it and holds the breaker (it only sees handler calls).
 */
class PassedOnRead implements LegacyHandler {
  private abort: Abort | undefined;
  private resume: (() => void) | undefined;

  constructor(
    private readonly deps: V1ReadsDeps,
    private readonly req: http.IncomingMessage,
    private readonly res: http.ServerResponse,
    private readonly url: string,
    private readonly method: 'GET' | 'HEAD',
    private readonly call: RequestCall,
  ) {
    res.once('close', this.closed);
  }

  /** The read ends once the answer is out or the client is gone; a client gone first stops it. */
  private readonly closed = (): void => {
    const { req, res, call } = this;
    if (!res.writableFinished) {
      this.abort?.(new errors.RequestAbortedError());
      // gone before its answer was out (not broken off by v1): the client left, whatever v1 had begun to say
      if (call.broken === undefined) call.stop('cancelled');
    }
    call.status = res.statusCode;
    call.source = {
      method: this.method,
      url: this.url,
      host: req.headers.host,
      remoteAddress: req.socket.remoteAddress,
      remotePort: req.socket.remotePort,
      statusCode: res.statusCode,
    };
    call.end();
  };

  private readonly drained = (): void => this.resume?.();

  onConnect(abort: Abort): void {
    this.abort = abort;
    if (this.res.destroyed) abort(new errors.RequestAbortedError());
  }

  onHeaders(statusCode: number, raw: Buffer[], resume: () => void): boolean {
    this.resume = resume;
    // a body of the backend's is never sniffed into something else on this origin
    const given = answerHead(this.call);
    const head: string[] = [];
    for (const name in given) head.push(name, given[name] as string);
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = (raw[i] as Buffer).toString('latin1');
      const lower = name.toLowerCase();
      if (HOP_BY_HOP.has(lower) || lower === 'x-content-type-options') continue;
      const value = (raw[i + 1] as Buffer).toString('latin1');
      // v1's own request id, when it sends one, is the one the client sees (as on the routes)
      if (lower === REQUEST_ID_HEADER) head[head.indexOf(REQUEST_ID_HEADER) + 1] = value;
      else head.push(name, value);
    }
    this.res.writeHead(statusCode, head);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.res.write(chunk)) return true;
    // the client reads slower than v1 sends: v1 waits until the client has taken what is queued
    this.res.once('drain', this.drained);
    return false;
  }

  onComplete(): void {
    this.res.end();
  }

  onError(err: Error): void {
    const { res } = this;
    if (res.destroyed) return;
    // cut short after it started (v1's answer broke off): the connection ends, nothing to tell
    if (res.headersSent) {
      this.call.broken = err;
      res.destroy();
      return;
    }
    const { status, body } = renderError(transportError(err, this.deps.maxResponseBytes, BACKEND), this.url);
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...answerHead(this.call) }).end(text);
  }
}
