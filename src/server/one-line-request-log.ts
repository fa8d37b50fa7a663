import { hostname } from 'node:os';
import type { DestinationStream } from 'pino';
import type { LineSource, RequestCall } from '../exchange/request-call.js';

const INFO = 30;
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Number.POSITIVE_INFINITY };

/** Where error lines go: pino, with fastify's serializers and the redaction of credentials. */
export interface ErrorLog {
  error(fields: object, message: string): void;
}

/**
 * The one writer of request lines, whichever way a request came in: one line per request when it is
 * answered (method and URL, status, a gRPC call's status, its outcome, time), in the shape pino gives fastify's
 * `{req, res, responseTime}`. A request answered without trouble has its line written by hand,
 * straight to the log's stream: it holds no header, so there is nothing to redact, and no logger is
 * made for it. A bug met on the way gets a line of its own first; a request whose transport failed
 * gets its line at error level; both through pino.
 */
export class OneLineRequestLog {
  private readonly stream: DestinationStream | undefined;
  // what every line of this process starts with after its time (pino's base: pid and hostname)
  private readonly base = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":`;

  constructor(
    level: string,
    stream: DestinationStream | undefined,
    private readonly errors: ErrorLog,
  ) {
    this.stream = stream && (LEVELS[level] ?? INFO) <= INFO ? stream : undefined;
  }

  readonly write = (call: RequestCall): void => {
    if (call.failure !== undefined) this.errors.error({ reqId: call.requestId, err: call.failure }, 'request failed');
    const source = call.source;
    if (source === undefined) return;
    const responseTime = performance.now() - call.startedAt;
    if (call.broken) {
      const req = {
        method: source.method,
        url: source.url,
        headers: { 'accept-version': source.version },
        host: source.host,
        ip: source.remoteAddress,
        socket: { remotePort: source.remotePort },
      };
      this.errors.error(
        { reqId: call.requestId, req, res: { statusCode: source.statusCode }, outcome: call.outcome, responseTime, err: call.broken },
        'request errored',
      );
      return;
    }
    this.stream?.write(this.lineOf(call, source, responseTime));
  };

  /** The line pino would write for `{req, res, responseTime}` with fastify's serializers, made by hand (undefined fields left out, as JSON does). */
  private lineOf(call: RequestCall, line: LineSource, responseTime: number): string {
    const req =
      `{"method":${quoted(line.method)},"url":${quoted(line.url)}` +
      field('version', line.version) +
      field('host', line.host) +
      field('remoteAddress', line.remoteAddress) +
      field('remotePort', line.remotePort) +
      '}';
    const grpc = line.grpcStatus === undefined ? '' : `,"grpcStatus":${Number(line.grpcStatus)}`;
    return `{"level":30,"time":${Date.now()}${this.base}${quoted(call.requestId)},"req":${req},"res":{"statusCode":${line.statusCode}}${grpc},"outcome":"${call.outcome}","responseTime":${responseTime}${traceFields(call)},"msg":"request completed"}\n`;
  }
}

/**
 * The trace a line belongs to, as OpenTelemetry's log model names it: the request's own span when
 * it was traced here, else the client's trace (its `traceparent`), else nothing. Ids are hex.
 */
function traceFields(call: RequestCall): string {
  const context = call.traced?.context;
  if (context) return `,"trace_id":"${context.traceId}","span_id":"${context.spanId}","trace_flags":"0${context.traceFlags & 1}"`;
  return call.clientTraceId === undefined ? '' : `,"trace_id":"${call.clientTraceId}"`;
}

// printable ASCII without `"` and `\`: such a string is its own JSON text between quotes
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A string as JSON: most (methods, paths, ids, hosts) need no escaping, which a test tells faster than `JSON.stringify` escapes. */
function quoted(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** `,"name":value` as JSON, or nothing for a value JSON leaves out. */
function field(name: string, value: unknown): string {
  if (value === undefined) return '';
  return `,"${name}":${typeof value === 'string' ? quoted(value) : JSON.stringify(value)}`;
}
