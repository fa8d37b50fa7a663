import { readFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { Server, Socket } from 'node:net';
import { opensHttp2 } from '../net/first-bytes.js';
import { refusedWithoutHost } from './client-error.js';
import type { Handler, OpenConnections } from './open-connections.js';

// an answer without trailers has the rest of its request dropped this long after it finished
const UNREAD_GRACE_MS = 1_000;
// how long a client still sending a refused request is read before its stream is reset (by then it
// has long read the answer)
const DRAIN_MS = 1_000;

// the largest request head, as Node's HTTP/1.1 parser allows by default (16 KiB)
export const MAX_HEADER_BYTES = 16 * 1024;

export interface DualServerOptions {
  /** a connection's first request head (HTTP/1.1) or first stream (HTTP/2) must arrive within this */
  headersTimeoutMs: number;
  /** a whole request (head and body) must arrive within this */
  requestTimeoutMs: number;
  /** a kept-alive HTTP/1.1 connection, or an HTTP/2 session with no open stream, is closed after this */
  idleTimeoutMs: number;
  /** open client connections at most; more are closed as they come (and counted) */
  maxConnections: number;
  /** concurrent streams per HTTP/2 session, advertised to the client */
  maxConcurrentStreams: number;
  /** the largest request body (BODY_LIMIT): what is left of a refused one is read and dropped up to twice this */
  bodyLimit: number;
  /** TLS_CERT_FILE and TLS_KEY_FILE: TLS with ALPN offering h2 and http/1.1 */
  tls?: { certFile: string; keyFile: string } | undefined;
  /** HTTP/2 streams served before Node's compatibility layer (the gRPC fast path): true when it took the stream */
  takeStream?: StreamTaker | undefined;
  /** HTTP/1.1 requests served before the handler (the v1 reads): true when it took the request */
  takeRequest?: RequestTaker | undefined;
}

export type RequestTaker = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

export type StreamTaker = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => boolean;

/** The server's streams offered to `take` first; the ones it leaves go on to the compatibility layer (fastify). */
function offeringStreams(server: http2.Http2Server | http2.Http2SecureServer, take: StreamTaker | undefined): void {
  if (!take) return;
  const compat = server.listeners('stream') as ((...args: unknown[]) => void)[];
  server.removeAllListeners('stream');
  server.on('stream', (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, ...rest: unknown[]) => {
    if (take(stream, headers)) return;
    for (const listener of compat) listener.call(server, stream, headers, ...rest);
  });
}

/**
 * Answering before the whole request arrived (a message over the limit, a refusal) leaves a client
 * that is still sending with a stream it cannot finish: its window fills, the rest is never read.
 * Once the answer is out (after the trailers Node's compatibility layer sends when the stream asks
 * for them, or a moment after an answer without them), the rest of the request is read and dropped,
 * so the client can finish and the stream ends; a client that sends more than `drainBytes`, or for
 * longer than `drainMs`, is told to stop with RST_STREAM(NO_ERROR) (RFC 9113, section 8.1). (Resetting at
 * once would be simpler, but some gRPC clients then lose the trailers they have not yet read.)
 */
function endingUnreadStreams(handler: Handler, limits: UnreadLimits): Handler {
  return (req, res) => {
    if ('stream' in res) {
      const stream = res.stream;
      const request = req as http2.Http2ServerRequest;
      const drain = () => dropUnread(stream, () => request.complete, limits);
      // (listening after the compatibility layer, which sends the trailers first)
      stream.once('wantTrailers', () => setImmediate(drain));
      stream.once('finish', () => {
        if (!request.complete) setTimeout(drain, UNREAD_GRACE_MS).unref();
      });
    }
    handler(req, res);
  };
}

/** How much of a refused request is read and dropped, and for how long, before its stream is reset. */
export interface UnreadLimits {
  drainBytes: number;
  drainMs: number;
}

const dropping = new WeakSet<http2.ServerHttp2Stream>();

/**
 * Reads and drops the rest of a request that was answered before it all arrived (`complete` says
 * whether it has), so its client can finish; past `drainBytes` or `drainMs` the stream is told to
 * stop with RST_STREAM(NO_ERROR). Once per stream, whoever asks first.
 */
export function dropUnread(stream: http2.ServerHttp2Stream, complete: () => boolean, limits: UnreadLimits): void {
  if (dropping.has(stream) || complete() || stream.destroyed) return;
  dropping.add(stream);
  const stop = () => {
    clearTimeout(timer);
    if (stream.destroyed) return;
    stream.close(http2.constants.NGHTTP2_NO_ERROR);
    // once the reset is out the stream's reading ends, and it is freed (destroying it before
    // then would drop what is still queued for the client)
    stream.once('end', () => stream.destroy());
  };
  const timer = setTimeout(stop, limits.drainMs);
  timer.unref();
  let dropped = 0;
  // the request the data was for is gone: whoever read it would keep the stream paused on it
  stream.removeAllListeners('data');
  stream.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > limits.drainBytes) stop();
  });
  stream.once('end', () => clearTimeout(timer));
  stream.resume();
}

function http2Settings(opts: DualServerOptions): http2.ServerOptions {
  return {
    settings: { maxConcurrentStreams: opts.maxConcurrentStreams, maxHeaderListSize: MAX_HEADER_BYTES },
    maxHeaderListPairs: 128,
    // streams refused past the concurrency bound end the session after this many
    maxSessionRejectedStreams: 100,
  };
}

/**
 * One listener for REST and gRPC. Cleartext: each connection's first bytes decide, the HTTP/2
 * preface (h2c with prior knowledge, as gRPC clients dial `http://`) goes to an HTTP/2 server, the
 * rest to the HTTP/1.1 server (Node's timeouts and client errors). TLS: ALPN offers both. Either way
 * every request reaches the same handler, and `connections` bounds, times and drains them all.
 */
export function dualProtocolServer(serve: Handler, opts: DualServerOptions, connections: OpenConnections): Server {
  const take = opts.takeRequest;
  const handler = connections.counting((req, res) => {
    if ('stream' in res) serve(req, res);
    else if (!refusedWithoutHost(req as http.IncomingMessage, res) && !take?.(req as http.IncomingMessage, res)) serve(req, res);
  });
  if (opts.tls) {
    const secure = http2.createSecureServer(
      {
        allowHTTP1: true,
        cert: readFileSync(opts.tls.certFile),
        key: readFileSync(opts.tls.keyFile),
        ALPNProtocols: ['h2', 'http/1.1'],
        // a connection that never completes its handshake is a silent one
        handshakeTimeout: opts.headersTimeoutMs,
        ...http2Settings(opts),
      },
      endingUnreadStreams(handler, drainLimits(opts)),
    );
    offeringStreams(secure, opts.takeStream);
    Object.assign(secure, http1Timeouts(opts), { keepAliveTimeout: opts.idleTimeoutMs });
    connections.watch(secure, opts);
    secure.on('session', (session) => connections.session(session, opts));
    return secure;
  }
  const h1 = http.createServer(http1Timeouts(opts), handler);
  h1.keepAliveTimeout = opts.idleTimeoutMs;
  // Closing the listener would also close the kept-alive connections idle at that moment (Node does
  // so in close()), racing their clients' next request: instead they stay, their next answer says
  // Connection: close, and whatever is left idle is closed once the drain's work is done.
  h1.closeIdleConnections = () => undefined;
  const h2 = http2.createServer(http2Settings(opts), endingUnreadStreams(handler, drainLimits(opts)));
  offeringStreams(h2, opts.takeStream);
  h2.on('session', (session) => connections.session(session, opts));
  const http1Listeners = h1.listeners('connection') as ((socket: Socket) => void)[];
  h1.removeAllListeners('connection');
  connections.watch(h1, opts);
  h1.on('connection', (socket: Socket) => {
    // nothing at all within the head's time: a silent connection (a load balancer's TCP check, a
    // stalled client) is closed; one that closes before a byte is released at once
    const silent = setTimeout(() => socket.destroy(), opts.headersTimeoutMs);
    const gone = () => {
      clearTimeout(silent);
      socket.destroy();
    };
    socket.once('end', gone);
    socket.once('error', gone);
    socket.once('data', (first: Buffer) => {
      clearTimeout(silent);
      socket.off('end', gone);
      socket.off('error', gone);
      socket.pause();
      socket.unshift(first);
      if (opensHttp2(first)) {
        // the HTTP/2 session takes the socket's handle over and first reads what the socket holds
        // already (the bytes put back): the socket itself is never resumed, or its JavaScript side
        // would read what belongs to the session
        h2.emit('connection', socket);
      } else {
        for (const listener of http1Listeners) listener.call(h1, socket);
        socket.resume();
      }
    });
  });
  return h1;
}

/** How much of a refused request is read and dropped before its stream is reset. */
export function drainLimits(opts: Pick<DualServerOptions, 'bodyLimit' | 'requestTimeoutMs'>): UnreadLimits {
  return { drainBytes: 2 * opts.bodyLimit + 64 * 1024, drainMs: Math.min(opts.requestTimeoutMs, DRAIN_MS) };
}

/** The HTTP/1.1 timeouts, cleartext or over TLS; Node checks open requests against them every interval. */
function http1Timeouts(opts: DualServerOptions): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
  requireHostHeader: boolean;
} {
  return {
    // Node's own refusal of an HTTP/1.1 request without Host has no body: it is answered in the one shape instead
    requireHostHeader: false,
    headersTimeout: Math.min(opts.headersTimeoutMs, opts.requestTimeoutMs),
    requestTimeout: opts.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(opts.headersTimeoutMs / 4))),
  };
}
