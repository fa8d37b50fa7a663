import http2 from 'node:http2';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetGroupRequestSchema } from '../../src/gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import { A, A_TEAM, TOKENS } from '../support/fixtures.js';
import { resolveSettings } from '../../src/config/load-settings.js';
import { buildProxyApp } from '../../src/app/build-proxy-app.js';
import type { TimesStore } from '../../src/meta/meta-store.js';
import { call, startHarness } from '../support/emulator-harness.js';
import { LogCapture, type ProxyOnEmulator, settingsFrom, startProxyOnEmulator } from '../support/proxy-harness.js';
import { exchange, frame, grpcHeaders, roundTrip } from '../support/raw-h2.js';

const PATH = '/chainguard.platform.iam.v2beta1.GroupsService/GetGroup';
const get = (uid: string) => Buffer.from(toBinary(GetGroupRequestSchema, create(GetGroupRequestSchema, { uid })));
/** A plain gRPC GetGroup's request headers, as alice. */
const getGroup = (extra: Record<string, string> = {}) => grpcHeaders(PATH, TOKENS.alice, extra);

/** `use` on one HTTP/2 session to `url`, closed after. */
async function onSession<T>(url: string, use: (session: http2.ClientHttp2Session) => Promise<T>): Promise<T> {
  const session = http2.connect(url);
  try {
    return await use(session);
  } finally {
    session.destroy();
  }
}

// Plain gRPC calls (`application/grpc`, uncompressed) are served straight off their HTTP/2 streams;
// the same call with `grpc-encoding: gzip` (its message still sent uncompressed, as the protocol
// allows) goes through connect's router. Both must answer alike, byte for byte.
describe('plain gRPC calls served off their HTTP/2 streams', () => {
  let env: ProxyOnEmulator;
  const logs = new LogCapture();
  beforeAll(async () => {
    env = await startProxyOnEmulator({ BODY_LIMIT: '10000', REQUEST_TIMEOUT_MS: '500', LOG_LEVEL: 'info' }, logs);
  });
  afterAll(() => env?.close());

  const cases: [string, Buffer | undefined, Record<string, string>][] = [
    ['a found group', frame(get(A_TEAM)), {}],
    ['a bare token', frame(get(A_TEAM)), { authorization: TOKENS.alice }],
    ['no token', frame(get(A_TEAM)), { authorization: '' }],
    ['a group that does not exist', frame(get(`${A}/ffffffffffffffff`)), {}],
    ['a uid that is not one', frame(get('nope')), {}],
    ['no message', undefined, {}],
    ['two messages', Buffer.concat([frame(get(A_TEAM)), frame(get(A_TEAM))]), {}],
    ['a message cut short', frame(get(A_TEAM)).subarray(0, 8), {}],
    ['a head cut short', frame(get(A_TEAM)).subarray(0, 3), {}],
    ['a message that is not protobuf', frame(Buffer.from([0xff, 0xff, 0xff])), {}],
    ['a message over BODY_LIMIT', frame(Buffer.alloc(20_000)), {}],
    ['an unreadable grpc-timeout', frame(get(A_TEAM)), { 'grpc-timeout': 'soon' }],
    ['a grpc-timeout', frame(get(A_TEAM)), { 'grpc-timeout': '5S' }],
  ];

  it.each(cases)('%s: the same status, text, details, metadata and message as through connect', async (_name, body, extra) => {
    const [fast, connect] = await onSession(env.proxy.url, (session) =>
      Promise.all([
        roundTrip(session, getGroup({ ...extra, 'x-request-id': 'plain-1' }), body),
        roundTrip(session, getGroup({ ...extra, 'x-request-id': 'plain-1', 'grpc-encoding': 'gzip' }), body),
      ]),
    );
    const { date: _d1, ...fastHeaders } = fast.headers;
    const { date: _d2, 'grpc-encoding': encoding, ...connectHeaders } = connect.headers;
    expect(encoding === undefined || encoding === 'gzip').toBe(true);
    expect(fastHeaders).toEqual(connectHeaders);
    expect(fastHeaders['x-request-id']).toBe('plain-1');
    expect(fast.trailers).toEqual(connect.trailers);
    expect(fast.body.equals(connect.body)).toBe(true);
  });

  it('a compressed message without an encoding is INTERNAL, as connect has it', async () => {
    const answer = await onSession(env.proxy.url, (session) => roundTrip(session, getGroup(), frame(get(A_TEAM), 1)));
    expect(answer.trailers['grpc-status']).toBe('13');
    expect(decodeURIComponent(String(answer.trailers['grpc-message']))).toBe('received compressed envelope, but do not know how to decompress');
  });

  it('a message that never ends is DEADLINE_EXCEEDED at REQUEST_TIMEOUT_MS, its stream ended', async () => {
    // a whole message, but the stream is never ended: the proxy cannot know no second one comes
    const answer = await onSession(env.proxy.url, (session) => exchange(session, getGroup(), frame(get(A_TEAM)), 5_000));
    expect(answer.grpcStatus).toBe('4');
    expect(answer.grpcMessage).toBe('Deadline exceeded: the request (headers and body) did not arrive in time');
    expect(answer.closed).toBe(true);
  });

  it('each call has one log line with its request id, gRPC status and time', async () => {
    await onSession(env.proxy.url, (session) => roundTrip(session, getGroup({ 'x-request-id': 'logged-1' }), frame(get(`${A}/ffffffffffffffff`))));
    const lines = logs.lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === 'logged-1');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        req: expect.objectContaining({ method: 'POST', url: PATH, remoteAddress: '127.0.0.1' }),
        res: { statusCode: 200 },
        grpcStatus: 5,
        responseTime: expect.any(Number),
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(TOKENS.alice);
  });
});

describe('a bug behind either door', () => {
  it('answers INTERNAL in the one shape and is logged at error level with the request id, over REST and gRPC alike', async () => {
    const h = await startHarness();
    const logs = new LogCapture();
    // a times store that breaks the way a bug would (not a store outage, which is retryable)
    const broken: TimesStore = {
      observe: () => {
        throw new TypeError('a bug in the times store');
      },
      written: async () => {
        throw new TypeError('a bug in the times store');
      },
      removed: async () => undefined,
      close: async () => undefined,
    };
    const app = await buildProxyApp(resolveSettings(settingsFrom({ V1_BASE_URL: h.url, LOG_LEVEL: 'info' }), h.url, 0), { logStream: logs, meta: broken });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const proxy = { url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
    try {
      const rest = await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A_TEAM}`, { token: TOKENS.alice, headers: { 'x-request-id': 'bug-rest' } });
      expect(rest.status).toBe(500);
      expect(rest.body).toMatchObject({ code: 13, message: 'Internal: the proxy failed to handle the request' });
      const grpc = await onSession(proxy.url, (session) => roundTrip(session, getGroup({ 'x-request-id': 'bug-grpc' }), frame(get(A_TEAM))));
      expect(grpc.trailers['grpc-status']).toBe('13');
      const failures = logs.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request failed');
      expect(failures.map((l) => [l.level, l.reqId, l.err?.message])).toEqual([
        [50, 'bug-rest', 'a bug in the times store'],
        [50, 'bug-grpc', 'a bug in the times store'],
      ]);
    } finally {
      await app.close();
      await h.close();
    }
  });
});
