import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface Reply {
  status: number;
  body: string | Buffer;
  headers?: Record<string, string>;
  delayMs?: number;
  /** send the headers and the first half of the body at once, the rest this much later */
  stallBodyMs?: number;
}

export interface RecordingUpstream {
  url: string;
  requests: Recorded[];
  /** what the next requests are answered with */
  answer: Reply;
  /** answers chosen per request; wins over `answer` when set */
  respond?: ((req: Recorded) => Reply) | undefined;
  close(): Promise<void>;
}

/** A loopback HTTP server that records each request exactly as it arrived and answers as told. */
export async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const state: RecordingUpstream = {
    url: '',
    requests: [],
    answer: { status: 200, body: '{}' },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      // the proxy asks whether v1 answers at start and at each /readyz: a probe, not a request under test
      if (!isReadinessProbe(recorded.url)) state.requests.push(recorded);
      const { status, body, headers, delayMs, stallBodyMs } = state.respond ? state.respond(recorded) : state.answer;
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        if (stallBodyMs === undefined) {
          res.end(body);
          return;
        }
        const bytes = Buffer.from(body);
        res.write(bytes.subarray(0, bytes.length >> 1));
        setTimeout(() => {
          if (!res.destroyed) res.end(bytes.subarray(bytes.length >> 1));
        }, stallBodyMs);
      }, delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = state.close;
  state.close = async () => {
    server.closeAllConnections();
    await close();
  };
  return state;
}

/** The readiness probe the proxy sends v1 (at start and at each `/readyz`). */
export const isReadinessProbe = (url: string): boolean => url.includes('id=readiness-probe');
