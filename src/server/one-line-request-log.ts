import { hostname } from 'node:os';
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { DestinationStream } from 'pino';

const INFO = 30;
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Number.POSITIVE_INFINITY };

/**
 * One log line per request, written when it is answered, with what fastify's two lines (incoming,
 * completed) held together: method and URL, status, time. A request answered without an error has
 * its line written here, straight to the log's stream, in pino's shape: it holds no header, so
 * there is nothing to redact, and no per-request logger is made for it. Errors go through pino.
 */
export class OneLineRequestLog extends LogController {
  private readonly stream: DestinationStream | undefined;
  // what every line of this process starts with after its time (pino's base: pid and hostname)
  private readonly base = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":`;

  constructor(level = 'info', stream?: DestinationStream) {
    super();
    this.stream = stream && (LEVELS[level] ?? INFO) <= INFO ? stream : undefined;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (!error && this.stream) {
      this.stream.write(this.completedLine(request, reply));
      return;
    }
    const line =
      request.rpcStatus === undefined
        ? { req: request, res: reply, responseTime: reply.elapsedTime }
        : { req: request, res: reply, grpcStatus: Number(request.rpcStatus), responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }

  /** The line of a request answered off fastify (the gRPC fast path), when info lines are written. */
  completed(line: RequestLine): void {
    this.stream?.write(this.lineOf(line));
  }

  private completedLine(request: FastifyRequest, reply: FastifyReply): string {
    return this.lineOf({
      id: request.id,
      method: request.method,
      url: request.url,
      version: request.headers['accept-version'],
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
      statusCode: reply.statusCode,
      grpcStatus: request.rpcStatus,
      responseTime: reply.elapsedTime,
    });
  }

  /** The line pino would write for `{req, res, responseTime}` with fastify's serializers, made by hand (undefined fields left out, as JSON does). */
  private lineOf(line: RequestLine): string {
    const req =
      `{"method":${quoted(line.method)},"url":${quoted(line.url)}` +
      field('version', line.version) +
      field('host', line.host) +
      field('remoteAddress', line.remoteAddress) +
      field('remotePort', line.remotePort) +
      '}';
    const grpc = line.grpcStatus === undefined ? '' : `,"grpcStatus":${Number(line.grpcStatus)}`;
    return `{"level":30,"time":${Date.now()}${this.base}${quoted(line.id)},"req":${req},"res":{"statusCode":${line.statusCode}}${grpc},"responseTime":${line.responseTime},"msg":"request completed"}\n`;
  }
}

/** What one request's line says. */
export interface RequestLine {
  id: string;
  method: string;
  url: string;
  version?: string | string[] | undefined;
  host: string | undefined;
  remoteAddress: string | undefined;
  remotePort: number | undefined;
  statusCode: number;
  grpcStatus?: string | undefined;
  /** milliseconds */
  responseTime: number;
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
