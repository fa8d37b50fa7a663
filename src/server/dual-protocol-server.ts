import { readFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { Server, Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { Handler, OpenConnections } from './open-connections.js';

// the first bytes an HTTP/2 client with prior knowledge sends (RFC 9113 § 3.4)
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

// an answer without trailers resets the rest of its request this long after it finished
const UNREAD_GRACE_MS = 1_000;

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
  /** TLS_CERT_FILE and TLS_KEY_FILE: TLS with ALPN offering h2 and http/1.1 */
  tls?: { certFile: string; keyFile: string } | undefined;
}

/** The socket as a stream that first yields `first` (already read from it), then the rest. */
function replaying(socket: Socket, first: Buffer): Duplex {
  const stream = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      socket.write(chunk, callback);
    },
    final(callback) {
      socket.end(callback);
    },
    destroy(err, callback) {
      socket.destroy(err ?? undefined);
      callback(err);
    },
  });
  Object.assign(stream, { remoteAddress: socket.remoteAddress, remotePort: socket.remotePort, remoteFamily: socket.remoteFamily });
  stream.push(first);
  socket.on('data', (chunk: Buffer) => {
    if (!stream.push(chunk)) socket.pause();
  });
  socket.once('end', () => stream.push(null));
  socket.once('close', () => stream.destroy());
  socket.on('error', (err) => stream.destroy(err));
  return stream;
}

/**
 * Answering before the whole request arrived (a message over the limit, a refusal) leaves a client
 * that is still sending with a stream it cannot finish (its window full, the rest unread): once the
 * answer is out, the rest is refused with RST_STREAM(NO_ERROR), which tells the client to stop
 * without an error (RFC 9113 § 8.1). Node's compatibility layer sends trailers on every answer when
 * the stream asks for them (`wantTrailers`, after the last data): the reset follows them. An answer
 * that ended without trailers (headers only) gets the reset a moment after it finished.
 */
function endingUnreadStreams(handler: Handler): Handler {
  return (req, res) => {
    if ('stream' in res) {
      const stream = res.stream;
      const request = req as http2.Http2ServerRequest;
      let ended = false;
      const end = () => {
        if (ended || request.complete || stream.destroyed) return;
        ended = true;
        stream.close(http2.constants.NGHTTP2_NO_ERROR);
        // The unread rest is dropped (the request it was for is gone: without this the stream stays
        // paused on it), so that once the reset is out its reading ends and the stream is freed.
        // Destroying it before then would drop the trailers.
        stream.removeAllListeners('data');
        stream.on('data', () => undefined);
        stream.once('end', () => stream.destroy());
        stream.resume();
      };
      // (listening after the compatibility layer, which sends the trailers first)
      stream.once('wantTrailers', () => setImmediate(end));
      stream.once('finish', () => {
        if (!request.complete) setTimeout(end, UNREAD_GRACE_MS).unref();
      });
    }
    handler(req, res);
  };
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
  const handler = connections.counting(serve);
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
      endingUnreadStreams(handler),
    );
    Object.assign(secure, {
      headersTimeout: Math.min(opts.headersTimeoutMs, opts.requestTimeoutMs),
      requestTimeout: opts.requestTimeoutMs,
      keepAliveTimeout: opts.idleTimeoutMs,
      connectionsCheckingInterval: checkingInterval(opts),
    });
    connections.watch(secure, opts);
    secure.on('session', (session) => connections.session(session, opts));
    return secure;
  }
  const h1 = http.createServer(
    {
      headersTimeout: Math.min(opts.headersTimeoutMs, opts.requestTimeoutMs),
      requestTimeout: opts.requestTimeoutMs,
      connectionsCheckingInterval: checkingInterval(opts),
    },
    handler,
  );
  h1.keepAliveTimeout = opts.idleTimeoutMs;
  const h2 = http2.createServer(http2Settings(opts), endingUnreadStreams(handler));
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
      const n = Math.min(first.length, PREFACE.length);
      if (n >= 3 && PREFACE.subarray(0, n).equals(first.subarray(0, n))) {
        // the HTTP/2 session reads its socket's handle directly, past bytes already read: it gets a
        // stream that starts with them instead
        h2.emit('connection', replaying(socket, first));
      } else {
        socket.unshift(first);
        for (const listener of http1Listeners) listener.call(h1, socket);
      }
      socket.resume();
    });
  });
  return h1;
}

/** How often Node checks open HTTP/1.1 requests against their timeouts. */
function checkingInterval(opts: DualServerOptions): number {
  return Math.max(50, Math.min(1000, Math.floor(opts.headersTimeoutMs / 4)));
}
