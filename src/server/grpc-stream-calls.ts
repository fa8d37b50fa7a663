import type http2 from 'node:http2';
import { type Message, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { parseTimeout, setTrailerStatus } from '@connectrpc/connect/protocol-grpc';
import { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/error-registry.js';
import type { AroundRequest } from '../exchange/around-request.js';
import { answerHead, RequestCall } from '../exchange/request-call.js';
import { requestIdOf } from '../exchange/request-id.js';
import { type GrpcCodeNumber, httpStatusOf } from '../errors/grpc-codes.js';
import type { RequestLife } from '../upstream/request-life.js';
import { dropUnread, type UnreadLimits } from './dual-protocol-server.js';
import { COMPRESSED, ENVELOPE_HEAD, requestMessage } from './grpc-message-check.js';
import { type GrpcOutcome, type GrpcProcedure, namedCall } from './grpc-routes.js';

// gRPC proper with binary messages; gRPC-Web, Connect, JSON and compressed calls stay with connect
const PLAIN_GRPC = /^application\/grpc(\+proto)?\s*(;|$)/i;
const OK_TRAILERS = { 'grpc-status': '0' } as const;
// how close to its deadline a client's reset counts as the deadline passing (the call may have
// waited this long for the event loop before its deadline was read here)
const deadlineSlackMs = (timeoutMs: number) => Math.max(50, timeoutMs / 4);

export interface StreamCallDeps {
  /** the 40 RPCs by path */
  procedures: ReadonlyMap<string, GrpcProcedure>;
  /** the largest request message, in bytes (BODY_LIMIT) */
  limit: number;
  /** a whole request message must arrive within this (REQUEST_TIMEOUT_MS) */
  requestTimeoutMs: number;
  /** what is left of a request answered early is read and dropped up to this */
  unread: UnreadLimits;
  /** the stream's life, counted until it is answered (cancelled when its client resets it, stopped by the drain) */
  lifeOf: (stream: http2.ServerHttp2Stream) => RequestLife;
  /** what is written around every request: the call runs in it, ended once answered */
  around: AroundRequest;
}

const protocolError = (message: string, code: Code) => new ConnectError(`protocol error: ${message}`, code);

/** The message as a gRPC envelope (uncompressed). */
function envelope(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(ENVELOPE_HEAD + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  out.set(message, ENVELOPE_HEAD);
  return out;
}

/**
 * Unary gRPC calls (the platform SDK's and grpc-js's `application/grpc`, binary, uncompressed)
 * served straight off node:http2 streams: one envelope read and checked, the procedure run, the
 * answer written with its trailers, the call logged; no compatibility-layer request and response,
 * no framework route, no async-iterable plumbing. Everything else on HTTP/2 (gRPC-Web, Connect,
 * JSON or compressed messages, reflection, REST) goes on to fastify and connect: the wire answers
 * are the same either way (the same codes and texts as connect's for a broken envelope, the same
 * checks as every transport's for size and protobuf validity). Returns whether it took the stream.
 */
export function grpcStreamCalls(deps: StreamCallDeps): (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => boolean {
  return (stream, headers) => {
    if (headers[':method'] !== 'POST') return false;
    const type = headers['content-type'];
    if (type === undefined || !PLAIN_GRPC.test(type)) return false;
    const encoding = headers['grpc-encoding'];
    if (encoding !== undefined && encoding !== 'identity') return false;
    const procedure = deps.procedures.get(headers[':path'] ?? '');
    if (!procedure) return false;
    const call = new RequestCall('grpc', requestIdOf({ headers }));
    namedCall(call, procedure);
    deps.around.run(call, (c) => serveCall(deps, procedure, stream, headers, c));
    return true;
  };
}

/** Writes a call's answer (its message, or its error in the trailers) and ends the call with its status. */
function respond(
  deps: StreamCallDeps,
  procedure: GrpcProcedure,
  stream: http2.ServerHttp2Stream,
  headers: http2.IncomingHttpHeaders,
  call: RequestCall,
  outcome: GrpcOutcome | ConnectError,
  ended: () => boolean,
  socket: { remoteAddress?: string | undefined; remotePort?: number | undefined } | undefined,
): void {
  let error = outcome instanceof ConnectError ? outcome : outcome.error;
  let payload: Buffer | undefined;
  if (!error) {
    try {
      payload = envelope(toBinary(procedure.method.output, (outcome as GrpcOutcome).message as Message));
    } catch (err) {
      error = ConnectError.from(err);
    }
  }
  if (!stream.destroyed && !stream.closed) {
    const head: http2.OutgoingHttpHeaders = { ':status': 200, 'content-type': 'application/grpc+proto', ...answerHead(call) };
    const trailers = error ? Object.fromEntries(setTrailerStatus(new Headers(), error)) : OK_TRAILERS;
    try {
      stream.respond(head, { waitForTrailers: true });
      stream.once('wantTrailers', () => {
        if (!stream.destroyed) stream.sendTrailers(trailers);
      });
      stream.end(payload);
    } catch {
      // the client reset it meanwhile
    }
    // answered before the whole request came: the rest is read and dropped so the client can finish
    if (!ended()) dropUnread(stream, ended, deps.unread);
  }
  const code = error ? error.code : 0;
  call.grpcCode = code;
  call.status = httpStatusOf(code as GrpcCodeNumber);
  call.source = {
    method: 'POST',
    url: headers[':path'] ?? '',
    host: headers[':authority'] ?? headers.host,
    remoteAddress: socket?.remoteAddress,
    remotePort: socket?.remotePort,
    statusCode: 200,
    grpcStatus: String(code),
  };
  call.end();
}

function serveCall(
  deps: StreamCallDeps,
  procedure: GrpcProcedure,
  stream: http2.ServerHttp2Stream,
  headers: http2.IncomingHttpHeaders,
  call: RequestCall,
): void {
  // (a closed stream no longer knows its session)
  const socket = stream.session?.socket;
  const life = deps.lifeOf(stream);
  // a client's reset after the answer, or a write that finds the stream gone: nothing to tell anyone
  stream.on('error', () => undefined);
  let answered = false;
  let ended = false;
  // its message is whole and its procedure runs (the pipeline answers it from then on)
  let running = false;
  let timer: NodeJS.Timeout | undefined;

  const answer = (outcome: GrpcOutcome | ConnectError) => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    respond(deps, procedure, stream, headers, call, outcome, () => ended, socket);
  };

  // as connect: a grpc-timeout it cannot read is refused before the message is read
  const given = headers['grpc-timeout'];
  const timeout = parseTimeout(typeof given === 'string' ? given : null, Number.MAX_SAFE_INTEGER);
  if (timeout.error) {
    answer(timeout.error);
    return;
  }
  let deadlineFrom = Number.POSITIVE_INFINITY;
  if (timeout.timeoutMs !== undefined) {
    deadlineFrom = performance.now() + timeout.timeoutMs - deadlineSlackMs(timeout.timeoutMs);
    const deadline = setTimeout(() => {
      const passed = apiError('CLIENT_DEADLINE_EXCEEDED');
      life.abort(passed);
      // its message not yet whole: nothing runs that would answer it, so it is answered here
      if (!running && !answered) {
        call.stop('deadline');
        stop(procedure.status(passed));
      }
    }, timeout.timeoutMs);
    deadline.unref();
    stream.once('close', () => clearTimeout(deadline));
  }
  timer = setTimeout(() => answer(procedure.status(apiError('REQUEST_TIMEOUT'))), deps.requestTimeoutMs);
  timer.unref();

  const chunks: Buffer[] = [];
  let size = 0;
  let length = -1;
  let request: Message | undefined;
  // as connect: the first message is checked as soon as it is whole (a broken one answered at once);
  // whether another follows is known at the end
  const first = (body: Buffer): ConnectError | undefined => {
    if (((body[0] as number) & COMPRESSED) !== 0) return new ConnectError('received compressed envelope, but do not know how to decompress', Code.Internal);
    const message = requestMessage(procedure.method.input, body.subarray(ENVELOPE_HEAD, ENVELOPE_HEAD + length));
    if (message instanceof ApiError) return procedure.status(message);
    request = message;
    return undefined;
  };
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (length < 0 && size >= ENVELOPE_HEAD) {
      length = (chunks.length === 1 ? chunk : Buffer.concat(chunks)).readUInt32BE(1);
      // too large is known from the head: answered at once
      if (length > deps.limit) return stop(procedure.status(apiError('BODY_TOO_LARGE')));
    }
    if (request === undefined && length >= 0 && size >= ENVELOPE_HEAD + length) {
      const joined = Buffer.concat(chunks, size);
      chunks.length = 0;
      chunks.push(joined);
      const broken = first(joined);
      if (broken) return stop(broken);
    }
    // a second message, larger than any one may be
    if (size > 2 * (ENVELOPE_HEAD + deps.limit)) stop(procedure.status(apiError('BODY_TOO_LARGE')));
  };
  const stop = (error: ConnectError) => {
    stream.off('data', onData);
    answer(error);
  };
  stream.on('data', onData);
  // reset (or closed) before its answer: what came of its message is let go at once, and it is
  // counted as cancelled now, not when the request timeout would have fired
  stream.once('close', () => {
    if (answered) return;
    chunks.length = 0;
    // a client's own timer fires a moment before the proxy's (which started when the call came):
    // a reset at its deadline is the deadline passing, not a cancellation
    call.stop(performance.now() >= deadlineFrom ? 'deadline' : 'cancelled');
    stop(procedure.status(apiError('REQUEST_CANCELLED')));
  });
  stream.once('end', () => {
    ended = true;
    if (answered) return;
    clearTimeout(timer);
    // Node ends a stream its client reset before it says it was reset: a message cut short is
    // refused a moment later, once a reset would have been seen (and counted as cancelled)
    const refuse = (error: ConnectError) => setImmediate(() => answer(error));
    if (size === 0) return refuse(protocolError('missing input message for unary method', Code.Unimplemented));
    if (request === undefined) return refuse(protocolError('incomplete envelope', Code.InvalidArgument));
    if (size > ENVELOPE_HEAD + length) {
      const rest = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)).subarray(ENVELOPE_HEAD + length);
      const complete = rest.length >= ENVELOPE_HEAD && rest.length >= ENVELOPE_HEAD + rest.readUInt32BE(1);
      return refuse(
        complete
          ? protocolError('received extra input message for unary method', Code.Unimplemented)
          : protocolError('incomplete envelope', Code.InvalidArgument),
      );
    }
    running = true;
    procedure.run(request, { call, headers, signal: life }).then(answer, (err: unknown) => answer(ConnectError.from(err)));
  });
}
