import http2 from 'node:http2';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AroundRequest, afterAnswer, type Interceptor } from '../../src/exchange/around-request.js';
import { RequestCall } from '../../src/exchange/request-call.js';
import { GetGroupRequestSchema } from '../../src/gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import { call } from '../support/emulator-harness.js';
import { requestsCounted } from '../support/requests-counted.js';
import { A_TEAM, TOKENS } from '../support/fixtures.js';
import { LogCapture, type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { frame, grpcHeaders, roundTrip } from '../support/raw-h2.js';
import { until } from '../support/until.js';

const ADMIN = 'admin-token-for-the-lifecycle';
const PATH = '/chainguard.platform.iam.v2beta1.GroupsService/GetGroup';

interface Answered {
  status: number;
  head: Record<string, string | undefined>;
}

/** One request of a way in, sent with `id` as its x-request-id: its status and the answer's headers. */
type Send = (url: string, id: string) => Promise<Answered>;

const rest =
  (method: string, path: string, opts: { body?: unknown; raw?: string } = {}): Send =>
  async (url, id) => {
    const answer = await call(url, method, path, { token: TOKENS.alice, headers: { 'x-request-id': id }, ...opts });
    return { status: answer.status, head: Object.fromEntries(answer.headers) };
  };

const plainGrpc: Send = async (url, id) => {
  const session = http2.connect(url);
  try {
    const message = Buffer.from(toBinary(GetGroupRequestSchema, create(GetGroupRequestSchema, { uid: A_TEAM })));
    const answer = await roundTrip(session, grpcHeaders(PATH, TOKENS.alice, { 'x-request-id': id }), frame(message));
    return { status: Number(answer.headers[':status']), head: answer.headers as Record<string, string | undefined> };
  } finally {
    session.destroy();
  }
};

// The five ways in, one case suite: each answer carries its request id, `nosniff` and (v2) the side
// that served it, is counted once with its protocol, and has one log line, all written around the
// work by the same interceptors, not by the door.
const WAYS: [string, 'rest' | 'grpc' | 'v1', Send][] = [
  ['REST v2 through fastify', 'rest', rest('GET', `/iam/v2beta1/groups/${A_TEAM}`)],
  ['plain gRPC off its HTTP/2 stream', 'grpc', plainGrpc],
  ['Connect through fastify and connect', 'grpc', rest('POST', PATH, { body: { uid: A_TEAM } })],
  ['a v1 read on the fast path', 'v1', rest('GET', `/iam/v1/groups?id=${A_TEAM}`)],
  ['a v1 write through its route', 'v1', rest('POST', `/iam/v1/groups/${A_TEAM}`, { raw: '{not json' })],
];

describe('one request lifecycle for every way in', () => {
  let env: ProxyOnEmulator;
  const logs = new LogCapture();
  const metrics = async () => (await call(env.proxy.url, 'GET', '/metrics', { token: ADMIN })).body as string;
  beforeAll(async () => {
    env = await startProxyOnEmulator({ ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'info' }, logs);
  });
  afterAll(() => env?.close());

  it.each(WAYS)('%s: request id, nosniff, side header, one count with its protocol, one log line', async (name, protocol, send) => {
    const id = `lifecycle-${name.replace(/\W+/g, '-')}`;
    const before = await metrics();
    const answer = await send(env.proxy.url, id);
    expect(answer.head['x-request-id']).toBe(id);
    expect(answer.head['x-content-type-options']).toBe('nosniff');
    expect(answer.head['x-v2proxy-backend']).toBe(protocol === 'v1' ? undefined : 'translate');
    const lines = await until(
      async () => logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId === id),
      (found) => found.length > 0,
      `the log line of ${id}`,
    );
    expect(lines).toEqual([expect.objectContaining({ msg: 'request completed', res: { statusCode: answer.status } })]);
    const after = await metrics();
    expect(requestsCounted(after, { protocol }) - requestsCounted(before, { protocol })).toBe(1);
  });

  it('a REST client that leaves while v1 is slow: counted and logged once, with the status its request answered (499, cancelled)', async () => {
    const id = 'lifecycle-client-gone';
    await env.h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1/groups', method: 'GET', delayMs: 1_000 }] } });
    try {
      await env.h.dev('POST', '/__emulator/stats/reset');
      const before = await metrics();
      const leaving = new AbortController();
      const asked = fetch(`${env.proxy.url}/iam/v2beta1/groups/${A_TEAM}`, {
        headers: { authorization: `Bearer ${TOKENS.alice}`, 'x-request-id': id },
        signal: leaving.signal,
      }).catch(() => undefined);
      // it leaves once v1 has the request (the emulator counts a request as it comes, before its delay)
      await until(
        async () => (await env.h.dev('GET', '/__emulator/stats')).body.total as number,
        (total) => total > 0,
        'the v1 call of the request',
      );
      leaving.abort();
      await asked;
      const lines = await until(
        async () => logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId === id),
        (found) => found.length > 0,
        `the log line of ${id}`,
      );
      expect(lines).toEqual([expect.objectContaining({ msg: 'request completed', res: { statusCode: 499 } })]);
      const after = await metrics();
      expect(requestsCounted(after, { protocol: 'rest', status: '499' }) - requestsCounted(before, { protocol: 'rest', status: '499' })).toBe(1);
      expect(requestsCounted(after, { protocol: 'rest' }) - requestsCounted(before, { protocol: 'rest' })).toBe(1);
    } finally {
      await env.h.dev('DELETE', '/__emulator/faults');
    }
  });
});

describe('what is written around a request', () => {
  /** An interceptor that notes its after-part, and one whose after-part throws. */
  const noting = (seen: string[], name: string): Interceptor => afterAnswer(() => seen.push(name));
  const throwing: Interceptor = afterAnswer(() => {
    throw new Error('an after-part that fails');
  });

  it('each after-part runs once, innermost first, when the work ends twice', () => {
    const seen: string[] = [];
    const around = new AroundRequest([noting(seen, 'outer'), noting(seen, 'inner')]);
    const request = new RequestCall('rest', 'r1');
    around.run(request, (call) => {
      call.end();
      call.end();
    });
    expect(seen).toEqual(['inner', 'outer']);
    expect(request.ended).toBe(true);
  });

  it('a work that throws ends the request, with the throw as its failure', () => {
    const seen: string[] = [];
    const request = new RequestCall('grpc', 'r2');
    new AroundRequest([noting(seen, 'logged')]).run(request, () => {
      throw new Error('a door that broke');
    });
    expect(seen).toEqual(['logged']);
    expect((request.failure as Error).message).toBe('a door that broke');
  });

  it('an after-part that throws keeps none of the others from running, and is the failure the log line shows', () => {
    const seen: string[] = [];
    const request = new RequestCall('v1', 'r3');
    new AroundRequest([noting(seen, 'outer'), throwing, noting(seen, 'inner')]).run(request, (call) => call.end());
    expect(seen).toEqual(['inner', 'outer']);
    expect((request.failure as Error).message).toBe('an after-part that fails');
  });

  it('the work ending later (a transport event) runs the after-parts then, not before', () => {
    const seen: string[] = [];
    const request = new RequestCall('rest', 'r4');
    new AroundRequest([noting(seen, 'counted')]).run(request, () => undefined);
    expect(seen).toEqual([]);
    request.end();
    expect(seen).toEqual(['counted']);
  });
});
