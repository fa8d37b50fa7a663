import http from 'node:http';
import http2 from 'node:http2';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OUTCOMES } from '../../src/errors/request-outcome.js';
import { GetGroupRequestSchema } from '../../src/gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import { A, A_TEAM, CAROL, CUSTOM_ROLE_A, TOKENS } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { exchange, frame, grpcHeaders, roundTrip } from '../support/raw-h2.js';
import { until } from '../support/until.js';

const GET_GROUP = '/chainguard.platform.iam.v2beta1.GroupsService/GetGroup';
const getGroup = () => toBinary(GetGroupRequestSchema, create(GetGroupRequestSchema, { uid: A }));

/** The counts of `v2proxy_requests_total` whose labels match, summed. */
function counted(text: string, labels: RegExp): number {
  return text
    .split('\n')
    .filter((l) => l.startsWith('v2proxy_requests_total{') && labels.test(l))
    .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
}

/**
 * A client gone before its answer is one event, counted once the same way whichever of the five
 * ways in it came by: 499 / CANCELLED, outcome `cancelled`. Its deadline passing is answered at
 * the deadline, with the upstream read under way stopped.
 */
describe('the same event, the same count, on every door', () => {
  let env: ProxyOnEmulator;
  const metrics = async () => (await fetch(`${env.proxy.url}/metrics`)).text();
  const v1Reads = async () =>
    Object.entries((await env.h.dev('GET', '/__emulator/stats')).body.requests as Record<string, number>)
      .filter(([k]) => k.startsWith('GET /iam/v1/groups'))
      .reduce((n, [, c]) => n + c, 0);

  beforeAll(async () => {
    // a request timeout far off: a reset message must be let go and counted long before it
    env = await startProxyOnEmulator({ BODY_LIMIT: '2000000', REQUEST_TIMEOUT_MS: '60000' });
  });
  beforeEach(async () => {
    await env.h.dev('DELETE', '/__emulator/faults');
  });
  afterAll(() => env?.close());

  /** Sends one request its client gives up on once v1 has it; what it added to the count, by outcome. */
  async function cancelledOnce(send: (stop: AbortSignal) => Promise<unknown>, labels: RegExp): Promise<Record<string, number>> {
    await env.h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1/groups', method: 'GET', delayMs: 2_000 }] } });
    const before = await metrics();
    const reads = await v1Reads();
    const stop = new AbortController();
    const sent = send(stop.signal).catch(() => undefined);
    await until(v1Reads, (n) => n > reads, 'the read at v1');
    stop.abort();
    await sent;
    const delta = (text: string) =>
      Object.fromEntries(
        OUTCOMES.map((o) => [
          o,
          counted(text, new RegExp(`${labels.source}.*outcome="${o}"`)) - counted(before, new RegExp(`${labels.source}.*outcome="${o}"`)),
        ]),
      );
    const after = await until(
      async () => delta(await metrics()),
      (d) => Object.values(d).some((n) => n > 0),
      'the request counted',
    );
    return after;
  }
  const once = { answered: 0, client_error: 0, backend_failure: 0, cancelled: 1, deadline: 0, shutdown: 0, refused: 0 };

  it('REST (HTTP/1.1)', async () => {
    const d = await cancelledOnce(
      (signal) => fetch(`${env.proxy.url}/iam/v2beta1/groups/${A}`, { headers: { authorization: `Bearer ${TOKENS.alice}` }, signal }),
      /protocol="rest",resource="groups",operation="get",backend="translate",status="499"/,
    );
    expect(d).toEqual(once);
  });

  it('gRPC (plain, HTTP/2): the client resets its stream', async () => {
    const session = http2.connect(env.proxy.url);
    session.on('error', () => undefined);
    try {
      const d = await cancelledOnce(async (signal) => {
        const stream = session.request(grpcHeaders(GET_GROUP, TOKENS.alice));
        stream.on('error', () => undefined);
        stream.end(frame(getGroup()));
        signal.addEventListener('abort', () => stream.close(http2.constants.NGHTTP2_CANCEL));
        await new Promise((resolve) => stream.once('close', resolve));
      }, /protocol="grpc",resource="groups",operation="get",backend="translate",status="499"/);
      expect(d).toEqual(once);
    } finally {
      session.destroy();
    }
  });

  it('Connect (HTTP/1.1, JSON)', async () => {
    const d = await cancelledOnce(
      (signal) =>
        fetch(`${env.proxy.url}${GET_GROUP}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKENS.alice}` },
          body: JSON.stringify({ uid: A }),
          signal,
        }),
      /protocol="grpc",resource="groups",operation="get",backend="translate",status="499"/,
    );
    expect(d).toEqual(once);
  });

  it('gRPC-Web (HTTP/1.1, binary)', async () => {
    const d = await cancelledOnce(
      (signal) =>
        fetch(`${env.proxy.url}${GET_GROUP}`, {
          method: 'POST',
          headers: { 'content-type': 'application/grpc-web+proto', 'x-grpc-web': '1', authorization: TOKENS.alice },
          body: frame(getGroup()),
          signal,
        }),
      /protocol="grpc",resource="groups",operation="get",backend="translate",status="499"/,
    );
    expect(d).toEqual(once);
  });

  it('the v1 passthrough’s fast path (a GET over HTTP/1.1)', async () => {
    const d = await cancelledOnce(
      (signal) =>
        new Promise((resolve, reject) => {
          const req = http.get(`${env.proxy.url}/iam/v1/groups/${A}`, { headers: { authorization: `Bearer ${TOKENS.alice}` } }, resolve);
          req.on('error', reject);
          signal.addEventListener('abort', () => req.destroy());
        }),
      /protocol="v1",resource="v1",operation="read",backend="v1",status="499"/,
    );
    expect(d).toEqual(once);
  });

  it('a plain gRPC stream reset in the middle of its message: let go at once, counted as cancelled', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const settle = () => {
      gc();
      return process.memoryUsage().arrayBuffers;
    };
    const base = settle();
    const before = await metrics();
    const session = http2.connect(env.proxy.url);
    session.on('error', () => undefined);
    // (no side was asked: its message never came whole)
    const labels = /protocol="grpc",resource="groups",operation="get",backend="none",status="499",outcome="cancelled"/;
    try {
      // 20 messages of 1.5 MB each, a million bytes of each sent, then the streams reset
      const head = Buffer.alloc(5);
      head.writeUInt32BE(1_500_000, 1);
      const part = Buffer.alloc(1_000_000, 1);
      const streams = Array.from({ length: 20 }, () => {
        const stream = session.request(grpcHeaders(GET_GROUP, TOKENS.alice));
        stream.on('error', () => undefined);
        stream.write(head);
        return stream;
      });
      await Promise.all(streams.map((s) => new Promise((resolve) => s.write(part, resolve))));
      for (const s of streams) s.close(http2.constants.NGHTTP2_CANCEL);
      await until(
        async () => counted(await metrics(), labels) - counted(before, labels),
        (n) => n === 20,
        'the 20 resets counted as cancelled',
      );
    } finally {
      session.destroy();
    }
    // what the proxy had read of them is garbage now: no 20 MB kept until the request timeout (60 s)
    await until(
      async () => settle() - base,
      (grown) => grown < 5_000_000,
      'the memory the reset messages held',
    );
  });

  it('translated gRPC and Connect calls answer DEADLINE_EXCEEDED at the client’s deadline and stop their v1 read', async () => {
    await env.h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1/groups', method: 'GET', delayMs: 5_000 }] } });
    const session = http2.connect(env.proxy.url);
    session.on('error', () => undefined);
    try {
      // a raw client that keeps no deadline of its own: the proxy's answer is the one that comes
      const started = performance.now();
      const grpcAnswer = await roundTrip(session, grpcHeaders(GET_GROUP, TOKENS.alice, { 'grpc-timeout': '100m' }), frame(getGroup()));
      const grpcMs = performance.now() - started;
      expect(grpcAnswer.trailers['grpc-status'] ?? grpcAnswer.headers['grpc-status']).toBe('4');
      // (v1 would answer after 5 s)
      expect(grpcMs).toBeLessThan(4_000);
    } finally {
      session.destroy();
    }
    const started = performance.now();
    const res = await fetch(`${env.proxy.url}${GET_GROUP}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKENS.alice}`, 'connect-timeout-ms': '100' },
      body: JSON.stringify({ uid: A }),
    });
    const connectMs = performance.now() - started;
    expect(res.status).toBe(504);
    expect(((await res.json()) as { code: string }).code).toBe('deadline_exceeded');
    expect(connectMs).toBeLessThan(4_000);
    const text = await until(
      metrics,
      (t) => /^v2proxy_upstream_requests_total\{upstream="v1",status="504",outcome="deadline"\} [2-9]/m.test(t),
      'the two v1 reads stopped at the deadline',
    );
    expect(counted(text, /protocol="grpc",resource="groups",operation="get",backend="translate",status="504",outcome="deadline"/)).toBe(2);
  });

  it('a plain gRPC call whose deadline passes while its message is still coming is answered DEADLINE_EXCEEDED then', async () => {
    const session = http2.connect(env.proxy.url);
    session.on('error', () => undefined);
    try {
      const message = frame(getGroup());
      // the head of the message and part of it, and nothing more
      const answer = await exchange(session, grpcHeaders(GET_GROUP, TOKENS.alice, { 'grpc-timeout': '200m' }), message.subarray(0, 7), 4_000);
      expect(answer.grpcStatus).toBe('4');
      expect(answer.grpcMessage).toMatch(/deadline the client set/);
    } finally {
      session.destroy();
    }
  });

  it('a keyed create whose client leaves after v1 made it still finishes and records its key: the retry gets it, v1 made one', async () => {
    const stats = async () => (await env.h.dev('GET', '/__emulator/stats')).body.requests as Record<string, number>;
    const posts = async () =>
      Object.entries(await stats())
        .filter(([k]) => k.startsWith('POST /iam/v1/rolebindings'))
        .reduce((n, [, c]) => n + c, 0);
    const before = await posts();
    // the lookups that hydrate the created binding, after v1's create, are slow
    await env.h.dev('POST', '/__emulator/faults', {
      body: {
        rules: [
          // (within the attempt timeout: slow, not failing)
          { prefix: '/iam/v1/roles', method: 'GET', delayMs: 400 },
          { prefix: '/iam/v1/identities', method: 'GET', delayMs: 400 },
          { prefix: '/iam/v1/rolebindings', method: 'GET', delayMs: 400 },
        ],
      },
    });
    const create = (signal?: AbortSignal) =>
      fetch(`${env.proxy.url}/iam/v2beta1/roleBindings/${A_TEAM}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKENS.alice}`, 'content-type': 'application/json', 'idempotency-key': 'left-after-create' },
        body: JSON.stringify({ identityUid: CAROL, roleUid: CUSTOM_ROLE_A }),
        ...(signal ? { signal } : {}),
      });
    const stop = new AbortController();
    const first = create(stop.signal).catch(() => undefined);
    await until(posts, (n) => n > before, 'the create at v1');
    // gone while its binding is being hydrated
    stop.abort();
    await first;
    await env.h.dev('DELETE', '/__emulator/faults');
    // (the retry waits for the first to finish, then gets its answer from the key's record)
    const retry = await create();
    expect(retry.status).toBe(200);
    expect((await posts()) - before).toBe(1);
  });
});
