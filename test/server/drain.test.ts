import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import http2 from 'node:http2';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GetGroupRequestSchema } from '../../src/gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import { call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, TOKENS } from '../support/fixtures.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Proxy {
  child: ChildProcessWithoutNullStreams;
  url: string;
  port: number;
  stdout: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

/** The proxy as a process of its own (the real CLI, real signals), on the emulator of this test. */
async function startProxyProcess(env: Record<string, string>): Promise<Proxy> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: Date.now() })));
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /v2proxy listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1] as string);
    };
    child.stdout.on('data', check);
    void exited.then(() => reject(new Error(`the proxy exited: ${out}`)));
  });
  return { child, url, port: Number(new URL(url).port), stdout: () => out, exited };
}

/** A kept-alive HTTP/1.1 connection: requests one after the other, each answer's head and whether the connection then closed. */
class KeptAlive {
  private buffer = '';
  private closed = false;
  private constructor(private readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.buffer += d.toString();
    });
    socket.on('close', () => {
      this.closed = true;
    });
    socket.on('error', () => undefined);
  }
  static open(port: number): Promise<KeptAlive> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new KeptAlive(socket)));
      socket.once('error', reject);
    });
  }
  async get(path: string): Promise<{ head: string; body: string }> {
    this.buffer = '';
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: proxy\r\nConnection: keep-alive\r\n\r\n`);
    for (let i = 0; i < 200; i += 1) {
      const end = this.buffer.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(this.buffer)?.[1];
      if (end >= 0 && length !== undefined && this.buffer.length >= end + 4 + Number(length)) {
        return { head: this.buffer.slice(0, end), body: this.buffer.slice(end + 4, end + 4 + Number(length)) };
      }
      await sleep(10);
    }
    throw new Error(`no answer to ${path}: ${this.buffer} (closed: ${this.closed})`);
  }
  async closedWithin(ms: number): Promise<boolean> {
    for (let waited = 0; waited < ms && !this.closed; waited += 10) await sleep(10);
    return this.closed;
  }
}

function grpcFrame(payload: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, Buffer.from(payload)]);
}

/** A gRPC GetGroup over h2c, raw: its status, and whether its session was told GOAWAY. */
function grpcGetGroup(url: string) {
  const session = http2.connect(url);
  session.on('error', () => undefined);
  let goaway = false;
  session.on('goaway', () => {
    goaway = true;
  });
  const stream = session.request({
    ':method': 'POST',
    ':path': '/chainguard.platform.iam.v2beta1.GroupsService/GetGroup',
    'content-type': 'application/grpc',
    te: 'trailers',
    authorization: TOKENS.alice,
    'x-request-id': 'in-flight-grpc',
  });
  stream.on('error', () => undefined);
  stream.end(grpcFrame(toBinary(GetGroupRequestSchema, create(GetGroupRequestSchema, { uid: A }))));
  let status: string | undefined;
  stream.on('response', (h) => {
    if (h['grpc-status'] !== undefined) status = String(h['grpc-status']);
  });
  stream.on('trailers', (t) => {
    status = String(t['grpc-status']);
  });
  stream.resume();
  const done = new Promise<{ status: string | undefined; goaway: boolean }>((resolve) =>
    stream.once('close', () => {
      resolve({ status, goaway });
      session.close();
    }),
  );
  return done;
}

const logLines = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);

describe('drain on SIGTERM (the proxy as its own process)', { timeout: 30_000 }, () => {
  let h: EmulatorHarness;
  const running: Proxy[] = [];
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.dev('DELETE', '/__emulator/faults');
    for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  });
  afterAll(() => h?.close());

  it('not ready at once, still serving for SHUTDOWN_DELAY_MS, then no new connections, Connection: close, GOAWAY, in-flight work answered, every line logged, exit 0', async () => {
    const proxy = await startProxyProcess({ V1_BASE_URL: h.url, SHUTDOWN_DELAY_MS: '800', SHUTDOWN_TIMEOUT_MS: '6000', V1_ATTEMPT_TIMEOUT_MS: '5000' });
    running.push(proxy);
    const kept = await KeptAlive.open(proxy.port);
    expect((await kept.get('/healthz')).head).toMatch(/^HTTP\/1\.1 200/);
    // a gRPC call in flight over h2c: its v1 read takes 1.5 s
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1/groups', method: 'GET', delayMs: 1_500 }] } });
    const inFlight = grpcGetGroup(proxy.url);
    await sleep(150);
    const signalled = Date.now();
    proxy.child.kill('SIGTERM');
    await sleep(100);

    // draining: not ready, everything else still served, on new connections too
    const ready = await call(proxy.url, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ code: 14, message: 'Unavailable: the proxy is shutting down; retry' });
    expect((await call(proxy.url, 'GET', '/healthz')).status).toBe(200);
    await h.dev('DELETE', '/__emulator/faults');
    expect((await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice })).status).toBe(200);

    // closing: the listener is gone, the kept-alive connection is served once more and told to close
    await sleep(800);
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(proxy.port, '127.0.0.1', () => {
        socket.destroy();
        resolve('accepted');
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    const last = await kept.get('/healthz');
    expect(last.head).toMatch(/^HTTP\/1\.1 200/);
    expect(last.head).toMatch(/^connection: close$/im);
    expect(await kept.closedWithin(1_000)).toBe(true);

    // the stream in flight finished and was answered; its session was told GOAWAY
    expect(await inFlight).toEqual({ status: '0', goaway: true });
    const { code, at } = await proxy.exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(6_000);
    const lines = logLines(proxy.stdout());
    expect(lines.find((l) => l.reqId === 'in-flight-grpc')).toMatchObject({ msg: 'request completed', res: { statusCode: 200 }, grpcStatus: 0 });
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^shutting down: \/readyz answers 503/), expect.stringMatching(/^shut down in \d+ ms$/)]),
    );
  });

  it('a kept-alive connection used a moment before the signal is not cut when the listener closes: its next request, once nothing is in flight, is served and told to close', async () => {
    const proxy = await startProxyProcess({ V1_BASE_URL: h.url, SHUTDOWN_DELAY_MS: '200', SHUTDOWN_TIMEOUT_MS: '6000' });
    running.push(proxy);
    // a balancer's pooled connection, last used just before the signal
    const kept = await KeptAlive.open(proxy.port);
    expect((await kept.get('/healthz')).head).not.toMatch(/^connection: close$/im);
    proxy.child.kill('SIGTERM');
    while (!proxy.stdout().includes('closing: no new connections')) await sleep(10);
    // nothing is in flight; the balancer sends its next request on it a moment later
    await sleep(50);
    const next = await kept.get('/healthz');
    expect(next.head).toMatch(/^HTTP\/1\.1 200/);
    expect(next.head).toMatch(/^connection: close$/im);
    expect(await kept.closedWithin(1_000)).toBe(true);
    expect((await proxy.exited).code).toBe(0);
  });

  it('what is still running at SHUTDOWN_TIMEOUT_MS is answered 503 code 14 (REST) or UNAVAILABLE (gRPC), logged so, and the process exits in time', async () => {
    const proxy = await startProxyProcess({
      V1_BASE_URL: h.url,
      SHUTDOWN_DELAY_MS: '200',
      SHUTDOWN_TIMEOUT_MS: '2500',
      V1_ATTEMPT_TIMEOUT_MS: '60000',
      V1_TIMEOUT_MS: '60000',
    });
    running.push(proxy);
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1/groups', method: 'GET', delayMs: 20_000 }] } });
    const rest = call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice, headers: { 'x-request-id': 'in-flight-rest' } });
    const grpcCall = grpcGetGroup(proxy.url);
    await sleep(200);
    const signalled = Date.now();
    proxy.child.kill('SIGTERM');
    const answer = await rest;
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 14, message: 'Unavailable: the proxy is shutting down; retry' });
    expect((await grpcCall).status).toBe('14');
    const { code, at } = await proxy.exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(2_500 + 500);
    const lines = logLines(proxy.stdout());
    expect(lines.find((l) => l.reqId === 'in-flight-rest')).toMatchObject({ res: { statusCode: 503 } });
    expect(lines.find((l) => l.reqId === 'in-flight-grpc')).toMatchObject({ grpcStatus: 14 });
    expect(lines.map((l) => l.msg)).toContain('drain deadline: 2 requests still running were stopped and answered 503');
  });

  it('a second signal exits at once', async () => {
    const proxy = await startProxyProcess({ V1_BASE_URL: h.url, SHUTDOWN_DELAY_MS: '10000', SHUTDOWN_TIMEOUT_MS: '20000' });
    running.push(proxy);
    proxy.child.kill('SIGTERM');
    await sleep(300);
    const signalled = Date.now();
    proxy.child.kill('SIGINT');
    const { code, at } = await proxy.exited;
    expect(code).toBe(130);
    expect(at - signalled).toBeLessThan(1_000);
    expect(proxy.stdout()).toMatch(/v2proxy: SIGINT again: exiting now/);
  });
});
