import http2 from 'node:http2';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetRoleBindingRequestSchema } from '../../src/gen/chainguard/platform/iam/v2beta1/role_bindings_pb.js';
import { A, childUid, DEV_TOKEN, TOKENS } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { frame, grpcHeaders, roundTrip } from '../support/raw-h2.js';
import { until } from '../support/until.js';

const PATH = '/chainguard.platform.iam.v2beta1.RoleBindingsService/GetRoleBinding';
const BINDING = childUid(A, 'rb-alice');
const getBinding = (token: string) => grpcHeaders(PATH, token);
const message = () => frame(Buffer.from(toBinary(GetRoleBindingRequestSchema, create(GetRoleBindingRequestSchema, { uid: BINDING }))));

describe("a request's life reaches every call it causes", () => {
  let env: ProxyOnEmulator;
  const stats = async () => (await env.h.dev('GET', '/__emulator/stats')).body.requests as Record<string, number>;
  beforeAll(async () => {
    // no lookup is kept: each Get would look its identity up again
    env = await startProxyOnEmulator({ LOOKUP_CACHE_TTL_MS: '0' });
  });
  afterAll(() => env?.close());

  it('role-binding Gets reset while their binding read is delayed make no identity lookup after the reset', async () => {
    await env.h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1/rolebindings', delayMs: 300 }] } });
    await env.h.dev('POST', '/__emulator/stats/reset');
    const session = http2.connect(env.proxy.url);
    try {
      const streams = Array.from({ length: 20 }, () => {
        const stream = session.request(getBinding(TOKENS.alice));
        stream.on('error', () => undefined);
        stream.end(message());
        return stream;
      });
      // every binding read is under way (the delay holds its answer): the clients reset now
      await until(stats, (s) => (s['GET /iam/v1/rolebindings'] ?? 0) >= 20, 'the binding reads');
      for (const stream of streams) stream.close(http2.constants.NGHTTP2_CANCEL);
      // another caller's Get, sent after the resets and delayed alike: once it is answered, the
      // reset Gets' reads (sent before it) are answered too, and whatever they started is counted
      const after = await roundTrip(session, getBinding(DEV_TOKEN), message());
      expect(after.trailers['grpc-status']).toBe('0');
    } finally {
      session.destroy();
      await env.h.dev('DELETE', '/__emulator/faults');
    }
    const seen = await stats();
    expect(seen['GET /iam/v1/rolebindings']).toBe(21);
    // the one lookup is the last Get's own
    expect(seen['GET /iam/v1/identities']).toBe(1);
  });

  it('a v1 read answered 503 is not tried again once its client has gone', async () => {
    // every v1 call waits; groups fail and would be retried
    await env.h.dev('POST', '/__emulator/faults', {
      body: {
        rules: [
          { prefix: '/iam/v1/', delayMs: 250 },
          { prefix: '/iam/v1/groups', status: 503, delayMs: 200 },
        ],
      },
    });
    await env.h.dev('POST', '/__emulator/stats/reset');
    try {
      const client = new AbortController();
      const gone = fetch(`${env.proxy.url}/iam/v2beta1/groups/${A}`, { headers: { authorization: `Bearer ${TOKENS.alice}` }, signal: client.signal }).catch(
        (err: Error) => err.name,
      );
      await until(stats, (s) => (s['GET /iam/v1/groups'] ?? 0) >= 1, 'the first attempt');
      client.abort();
      expect(await gone).toBe('AbortError');
      // sent after the abort and held longer than the first attempt and a first retry's wait
      // (at most 20 ms): once it is answered, a retry would have arrived
      const after = await fetch(`${env.proxy.url}/iam/v2beta1/identities/${childUid(A, 'alice')}`, { headers: { authorization: `Bearer ${TOKENS.alice}` } });
      expect(after.status).toBe(200);
    } finally {
      await env.h.dev('DELETE', '/__emulator/faults');
    }
    expect((await stats())['GET /iam/v1/groups']).toBe(1);
  });
});
