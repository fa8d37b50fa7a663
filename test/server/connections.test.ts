import { readdirSync, readFileSync } from 'node:fs';
import http2 from 'node:http2';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectionBoundWarning, openFileLimitOf } from '../../src/server/open-file-limit.js';
import { A, TOKENS } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

/** The descriptors this process holds: the proxy runs in it, so its server sockets are counted. */
const descriptors = () => readdirSync('/proc/self/fd').length;

const until = async (check: () => boolean, ms: number, step = 20): Promise<boolean> => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, step));
  }
  return check();
};

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves when the server has ended the connection (or after `ms`, with false). */
function closedByServer(socket: Socket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed || socket.readableEnded) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    socket.once('end', done);
    socket.once('close', done);
    socket.on('error', () => undefined);
    socket.resume();
  });
}

describe('connections that send nothing, or leave at once', () => {
  let env: ProxyOnEmulator;
  let port: number;
  const agent = new Agent({ connections: 1 });
  const served: number[] = [];
  /** another client, one request at a time on one connection of its own, while the sockets misbehave */
  const traffic = () => {
    let stop = false;
    const loop = (async () => {
      while (!stop) {
        const res = await request(`${env.proxy.url}/iam/v2beta1/groups/${A}`, { dispatcher: agent, headers: { authorization: `Bearer ${TOKENS.alice}` } });
        await res.body.text();
        served.push(res.statusCode);
      }
    })();
    return async () => {
      stop = true;
      await loop;
    };
  };

  beforeAll(async () => {
    env = await startProxyOnEmulator({ HEADERS_TIMEOUT_MS: '400', REQUEST_TIMEOUT_MS: '2000', IDLE_TIMEOUT_MS: '600' });
    port = Number(new URL(env.proxy.url).port);
    // warm: the v1 pool and this client's connection exist before the baseline is read
    const res = await request(`${env.proxy.url}/iam/v2beta1/groups/${A}`, { dispatcher: agent, headers: { authorization: `Bearer ${TOKENS.alice}` } });
    await res.body.text();
  });
  afterAll(async () => {
    await agent.close();
    await env?.close();
  });
  afterEach(() => {
    served.length = 0;
  });

  it('300 sockets that connect and close at once are released within a second; other clients are served throughout', async () => {
    const baseline = descriptors();
    const stopTraffic = traffic();
    const sockets = await Promise.all(Array.from({ length: 300 }, () => open(port)));
    for (const socket of sockets) socket.end();
    await Promise.all(sockets.map((s) => closedByServer(s, 5_000)));
    for (const socket of sockets) socket.destroy();
    await stopTraffic();
    // no CLOSE-WAIT left on the server's side: the descriptors are back where they were
    const released = await until(() => descriptors() <= baseline, 1_000);
    expect({ released, now: descriptors(), baseline }).toEqual({ released: true, now: expect.any(Number), baseline });
    expect(served.length).toBeGreaterThan(0);
    expect(served.every((s) => s === 200)).toBe(true);
  });

  it('300 silent sockets are closed by the server once HEADERS_TIMEOUT_MS passes without a request head', async () => {
    const baseline = descriptors();
    const stopTraffic = traffic();
    const started = Date.now();
    const sockets = await Promise.all(Array.from({ length: 300 }, () => open(port)));
    const closed = await Promise.all(sockets.map((s) => closedByServer(s, 5_000)));
    const took = Date.now() - started;
    for (const socket of sockets) socket.destroy();
    await stopTraffic();
    const released = await until(() => descriptors() <= baseline, 1_000);
    expect(closed.every(Boolean)).toBe(true);
    // not before the timeout
    expect(took).toBeGreaterThanOrEqual(350);
    expect(released).toBe(true);
    expect(served.length).toBeGreaterThan(0);
    expect(served.every((s) => s === 200)).toBe(true);
  });

  it('a half-sent request head is cut off at HEADERS_TIMEOUT_MS too', async () => {
    const socket = await open(port);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    expect(await closedByServer(socket, 3_000)).toBe(true);
  });

  it('a preface-only HTTP/2 connection, and an h2c session with no stream, are closed', async () => {
    const preface = await open(port);
    preface.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
    expect(await closedByServer(preface, 3_000)).toBe(true);
    preface.destroy();

    // a session that served one stream, then sits idle: closed after IDLE_TIMEOUT_MS (GOAWAY, then the socket)
    const session = http2.connect(env.proxy.url);
    session.on('error', () => undefined);
    const stream = session.request({ ':path': '/healthz' });
    stream.resume();
    await new Promise((resolve) => stream.once('close', resolve));
    const closed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 3_000);
      session.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    expect(closed).toBe(true);
  });

  it('an HTTP/1.1 keep-alive connection left idle is closed after IDLE_TIMEOUT_MS', async () => {
    const socket = await open(port);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const started = Date.now();
    expect(await closedByServer(socket, 3_000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });
});

describe('MAX_CONNECTIONS', () => {
  let env: ProxyOnEmulator;
  beforeAll(async () => {
    env = await startProxyOnEmulator({ MAX_CONNECTIONS: '20', HEADERS_TIMEOUT_MS: '10000' });
  });
  afterAll(() => env?.close());

  it('connections beyond the bound are refused and counted; once some close, clients are served again', async () => {
    const port = Number(new URL(env.proxy.url).port);
    const held = await Promise.all(Array.from({ length: 20 }, () => open(port)));
    // give the server the moment to count them
    await new Promise((resolve) => setTimeout(resolve, 50));
    const extra = await open(port);
    expect(await closedByServer(extra, 2_000)).toBe(true);
    extra.destroy();
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const metrics = await fetch(`${env.proxy.url}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^v2proxy_connections_refused_total 1$/m);
    expect(text).toMatch(/^v2proxy_connections_open \d+$/m);
  });
});

describe('over TLS too', () => {
  const TLS = join(import.meta.dirname, '../support/tls');
  let env: ProxyOnEmulator;
  beforeAll(async () => {
    env = await startProxyOnEmulator({
      TLS_CERT_FILE: join(TLS, 'test-cert.pem'),
      TLS_KEY_FILE: join(TLS, 'test-key.pem'),
      HEADERS_TIMEOUT_MS: '400',
      IDLE_TIMEOUT_MS: '600',
    });
  });
  afterAll(() => env?.close());

  it('a connection that never starts its handshake is closed at HEADERS_TIMEOUT_MS; an idle h2 session after IDLE_TIMEOUT_MS', async () => {
    const port = Number(new URL(env.proxy.url).port);
    const silent = await open(port);
    const started = Date.now();
    expect(await closedByServer(silent, 3_000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);

    const session = http2.connect(env.proxy.url, { ca: readFileSync(join(TLS, 'test-cert.pem')) });
    session.on('error', () => undefined);
    const stream = session.request({ ':path': '/healthz' });
    stream.resume();
    await new Promise((resolve) => stream.once('close', resolve));
    const idleFrom = Date.now();
    await new Promise((resolve) => session.once('close', resolve));
    expect(Date.now() - idleFrom).toBeGreaterThanOrEqual(500);
  });
});

describe('MAX_CONNECTIONS against the open-file limit', () => {
  const limits = (soft: string) =>
    `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                 1048576              files\n`;
  it('warns when the bound leaves too few descriptors for the backends, and not otherwise', () => {
    expect(openFileLimitOf(limits('1024'))).toBe(1024);
    expect(openFileLimitOf(limits('unlimited'))).toBeUndefined();
    expect(connectionBoundWarning(10_000, () => limits('1024'))).toMatch(
      /^MAX_CONNECTIONS 10000 leaves too few of this process's 1024 file descriptors .* below 512 /,
    );
    expect(connectionBoundWarning(10_000, () => limits('65536'))).toBeUndefined();
    expect(connectionBoundWarning(10_000, () => limits('unlimited'))).toBeUndefined();
    expect(
      connectionBoundWarning(10_000, () => {
        throw new Error('no /proc here');
      }),
    ).toBeUndefined();
  });
});
