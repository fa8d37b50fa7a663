import { readFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

type Handler = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => void;

// the first bytes an HTTP/2 client with prior knowledge sends (RFC 9113 § 3.4)
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

export interface DualServerOptions {
  http: http.ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
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
 * One listener for REST and gRPC. Cleartext: each connection's first bytes decide, the HTTP/2
 * preface (h2c with prior knowledge, as gRPC clients dial `http://`) goes to an HTTP/2 server, the
 * rest to the HTTP/1.1 server (fastify's own settings: timeouts, client errors). TLS: ALPN offers
 * both. Either way every request reaches the same fastify handler.
 */
export function dualProtocolServer(handler: Handler, opts: DualServerOptions): http.Server | http2.Http2SecureServer {
  if (opts.tls) {
    const secure = http2.createSecureServer(
      { allowHTTP1: true, cert: readFileSync(opts.tls.certFile), key: readFileSync(opts.tls.keyFile), ALPNProtocols: ['h2', 'http/1.1'] },
      handler,
    );
    return secure;
  }
  const h1 = http.createServer(opts.http, handler);
  h1.keepAliveTimeout = opts.keepAliveTimeout;
  h1.requestTimeout = opts.requestTimeout;
  const h2 = http2.createServer({}, handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  h2.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  const http1Listeners = h1.listeners('connection') as ((socket: Socket) => void)[];
  h1.removeAllListeners('connection');
  h1.on('connection', (socket: Socket) => {
    socket.once('data', (first: Buffer) => {
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
    socket.once('error', () => socket.destroy());
  });
  // closing the listener also ends the HTTP/2 sessions it handed on (they are not HTTP/1 connections)
  const close = h1.close.bind(h1);
  h1.close = (callback?: (err?: Error) => void) => {
    for (const session of sessions) {
      session.close();
      // a stream its client never finishes must not hold the close up
      setTimeout(() => session.destroy(), 1_000).unref();
    }
    return close(callback);
  };
  return h1;
}
