import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { aipError } from '../support/aip.js';
import { startRecordingUpstream, type RecordingUpstream } from '../support/recording-upstream.js';
import { startProxy } from '../support/proxy-harness.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  closed: boolean;
}

/** Writes raw bytes (in chunks, with pauses between them) and reads until the server closes. */
function raw(url: string, chunks: (string | { pauseMs: number })[]): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer; got ${JSON.stringify(text)}`));
    }, 8000);
    socket.on('data', (c: Buffer) => {
      text += c.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      let parsed: unknown = body;
      try {
        parsed = JSON.parse(body);
      } catch {
        // not JSON
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: parsed, closed: true });
    });
    socket.on('connect', async () => {
      for (const c of chunks) {
        if (typeof c === 'string') socket.write(c);
        // a client that sends slowly (the point of these cases is the server's timeout)
        else await new Promise((r) => setTimeout(r, c.pauseMs));
      }
    });
  });
}

describe('errors of the HTTP parser layer and slow clients', () => {
  let proxy: RunningProxy;
  let v1: RecordingUpstream;
  beforeAll(async () => {
    v1 = await startRecordingUpstream();
    proxy = await startProxy({ V1_BASE_URL: v1.url, REQUEST_TIMEOUT_MS: '600', HEADERS_TIMEOUT_MS: '400' });
  });
  afterAll(async () => {
    await proxy.close();
    await v1.close();
  });

  const malformed = aipError(3, /^Invalid argument: malformed request: /, 'INVALID_ARGUMENT');

  it('answers an unknown method, a NUL in a header and a bad chunked body in the one error shape, with a request id', async () => {
    for (const request of [
      'FOO /iam/v2beta1/groups HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\r\n',
      'GET /iam/v2beta1/groups HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n',
      'POST /iam/v2beta1/groups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    ]) {
      const res = await raw(proxy.url, [request]);
      expect(res.status, request).toBe(400);
      expect(res.body).toEqual(malformed);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
  });

  it('answers an HTTP/1.1 request without Host 400 in the one error shape and closes', async () => {
    for (const request of [
      'GET /iam/v2beta1/groups HTTP/1.1\r\nAuthorization: Bearer t\r\n\r\n',
      'GET /iam/v1/groups HTTP/1.1\r\n\r\n',
      'GET /healthz HTTP/1.1\r\n\r\n',
    ]) {
      const res = await raw(proxy.url, [request]);
      expect(res.status, request).toBe(400);
      expect(res.body).toEqual(aipError(3, /^Invalid argument: malformed request: an HTTP\/1\.1 request needs a Host header$/, 'INVALID_ARGUMENT'));
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    // nothing reached v1
    expect(v1.requests.filter((r) => r.url.startsWith('/iam/v1/groups'))).toEqual([]);
  });

  it('answers headers over 16 KiB with 431 in the one error shape', async () => {
    const res = await raw(proxy.url, [`GET /iam/v2beta1/groups HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`]);
    expect(res.status).toBe(431);
    expect(res.body).toEqual(aipError(8, 'Resource exhausted: the request headers are too large', 'RESOURCE_EXHAUSTED'));
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('cuts off a body that trickles in, and headers that stall, with 408', async () => {
    const slowBody = await raw(proxy.url, [
      'POST /iam/v2beta1/groups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{',
      { pauseMs: 700 },
      '"',
      { pauseMs: 700 },
      '"',
      { pauseMs: 3000 },
    ]);
    expect(slowBody.status).toBe(408);
    expect(slowBody.body).toEqual(aipError(4, 'Deadline exceeded: the request (headers and body) did not arrive in time', 'DEADLINE_EXCEEDED'));
    const slowHeaders = await raw(proxy.url, ['GET /iam/v2beta1/groups HTTP/1.1\r\nHost: x\r\n', { pauseMs: 3000 }]);
    expect(slowHeaders.status).toBe(408);
    expect(slowHeaders.headers['x-request-id']).toBeTruthy();
    // nothing of either reached v1
    expect(v1.requests).toEqual([]);
  });
});
