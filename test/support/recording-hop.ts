import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { isReadinessProbe } from './recording-upstream.js';

export interface HopRecord {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface RecordingHop {
  url: string;
  /** every request that went through, headers as they arrived */
  seen: HopRecord[];
  close(): Promise<void>;
}

/** A loopback HTTP hop in front of a real backend: records each request's headers, forwards it unchanged, answers what the backend answered. */
export async function startRecordingHop(
  target: string,
  /** a status to answer a request with instead of forwarding it (undefined: forward) */
  refuse: (record: HopRecord, index: number) => number | undefined = () => undefined,
): Promise<RecordingHop> {
  const seen: HopRecord[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const record = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
      // a readiness probe is forwarded, not recorded: it is not a request under test
      const probe = isReadinessProbe(record.url);
      if (!probe) seen.push(record);
      const refused = probe ? undefined : refuse(record, seen.length - 1);
      if (refused !== undefined) {
        res.writeHead(refused, { 'content-type': 'application/json' }).end('{"code":14,"message":"refused by the hop"}');
        return;
      }
      try {
        const { host: _host, connection: _connection, ...headers } = req.headers;
        const answer = await request(`${target}${req.url}`, {
          method: req.method as 'GET',
          headers: headers as Record<string, string>,
          body: chunks.length > 0 ? Buffer.concat(chunks) : null,
        });
        const body = Buffer.from(await answer.body.arrayBuffer());
        res.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'application/json') });
        res.end(body);
      } catch {
        res.writeHead(502).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
