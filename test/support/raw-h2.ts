// Raw HTTP/2 requests for transport tests: gRPC envelopes by hand, and what a stream got back.
import type http2 from 'node:http2';

/** The request headers of a plain gRPC call (`application/grpc`) to `path`, with a bearer token. */
export function grpcHeaders(path: string, token: string, extra: Record<string, string> = {}): http2.OutgoingHttpHeaders {
  return { ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', authorization: `Bearer ${token}`, ...extra };
}

/** A message in a gRPC envelope (`flags` 1: compressed). */
export function frame(payload: Uint8Array, flags = 0): Buffer {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, Buffer.from(payload)]);
}

/** One raw HTTP/2 request on `session`: what came back, and whether the stream was ended (closed) within `ms`. */
export function exchange(session: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, body: Buffer | undefined, ms = 3_000, answered = () => {}) {
  const stream = session.request(headers);
  const seen: { status?: number; grpcStatus?: string; grpcMessage?: string; body: Buffer[]; closed: boolean; rstCode?: number } = { body: [], closed: false };
  stream.on('response', (h) => {
    seen.status = Number(h[':status']);
    if (h['grpc-status'] !== undefined) seen.grpcStatus = String(h['grpc-status']);
  });
  stream.on('trailers', (t) => {
    answered();
    seen.grpcStatus = String(t['grpc-status']);
    seen.grpcMessage = decodeURIComponent(String(t['grpc-message'] ?? ''));
  });
  stream.on('data', (chunk: Buffer) => seen.body.push(chunk));
  stream.on('error', () => undefined);
  if (body) stream.write(body);
  return new Promise<typeof seen>((resolve) => {
    const timer = setTimeout(() => resolve(seen), ms);
    stream.once('close', () => {
      clearTimeout(timer);
      seen.closed = true;
      seen.rstCode = stream.rstCode;
      resolve(seen);
    });
  });
}

/** One whole raw HTTP/2 request (its body sent and ended): the response headers and trailers, and the body. */
export function roundTrip(session: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, body: Buffer | undefined) {
  const stream = session.request(headers);
  const seen: { headers: http2.IncomingHttpHeaders; trailers: http2.IncomingHttpHeaders; body: Buffer } = { headers: {}, trailers: {}, body: Buffer.alloc(0) };
  const chunks: Buffer[] = [];
  stream.on('response', (h) => {
    seen.headers = h;
  });
  stream.on('trailers', (t) => {
    seen.trailers = t;
  });
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.end(body);
  return new Promise<typeof seen>((resolve, reject) => {
    stream.once('error', reject);
    stream.once('close', () => resolve({ ...seen, body: Buffer.concat(chunks) }));
  });
}
