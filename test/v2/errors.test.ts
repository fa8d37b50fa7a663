import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, DEV_TOKEN } from '../support/fixtures.js';
import { call } from '../support/emulator-harness.js';
import { type ProxyOnEmulator, startProxy, startProxyOnEmulator } from '../support/proxy-harness.js';
import { startRecordingUpstream } from '../support/recording-upstream.js';
import { aipError } from '../support/aip.js';
import { grpcV2 } from '../support/grpc-v2-call.js';

describe('v2 errors: one AIP-193 shape for every failure', () => {
  let env: ProxyOnEmulator;
  beforeAll(async () => {
    env = await startProxyOnEmulator({ BODY_LIMIT: '2048' });
  });
  afterAll(() => env.close());
  const v2 = (method: string, path: string, opts: { body?: unknown; raw?: string; headers?: Record<string, string> } = {}) =>
    call(env.proxy.url, method, path, { token: DEV_TOKEN, ...opts });

  it('unknown v2 path → 404 code 5; known path with a wrong method → 501 code 12; a known :verb → 501', async () => {
    const unknown = await v2('GET', '/iam/v2beta1/widgets');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(aipError(5, 'Not found: no route for GET /iam/v2beta1/widgets', 'NOT_FOUND'));
    const wrong = await v2('PUT', `/iam/v2beta1/groups/${A}`, { body: {} });
    expect(wrong.status).toBe(501);
    expect(wrong.body).toEqual(aipError(12, `Unimplemented: PUT is not a method of /iam/v2beta1/groups/${A}`, 'UNIMPLEMENTED'));
    const collectionDelete = await v2('DELETE', '/iam/v2beta1/groups');
    expect(collectionDelete.status).toBe(501);
    const verb = await v2('GET', '/iam/v2beta1/groups:lookupGroup');
    expect(verb.status).toBe(501);
    expect(verb.body).toEqual(aipError(12, 'Unimplemented: groups:lookupGroup is not served by the proxy', 'UNIMPLEMENTED'));
    const itemVerb = await v2('POST', `/iam/v2beta1/groups/${A}:requestGroupAccess`, { body: {} });
    expect(itemVerb.status).toBe(501);
    expect((await v2('GET', '/iam/v2beta1/groups:frobnicate')).status).toBe(404);
  });

  it('a request with no token is answered 401 before its input is checked, and v1 is not asked (REST and gRPC)', async () => {
    await call(env.h.url, 'POST', '/__emulator/stats/reset');
    const cases: [string, string, unknown][] = [
      ['POST', `/iam/v2beta1/groups/${A}`, { name: 'Not A Name!', verified: 'yes' }],
      ['POST', '/iam/v2beta1/roleBindings/not-a-uid', {}],
      ['PATCH', `/iam/v2beta1/roles/${A}?update_mask=nothing`, { capabilities: ['CAP_NONE'] }],
      ['GET', '/iam/v2beta1/groups?page_size=many&order_by=sideways', undefined],
      ['DELETE', '/iam/v2beta1/identities/ZZ', undefined],
    ];
    const grpc = grpcV2(new URL(env.proxy.url).host, '');
    try {
      for (const [method, path, body] of cases) {
        const rest = await call(env.proxy.url, method, path, body === undefined ? {} : { body });
        expect([method, path, rest.status, rest.body]).toEqual([method, path, 401, aipError(16, 'Unauthenticated: missing bearer token', 'UNAUTHENTICATED')]);
        if (path.includes('not-a-uid') || path.endsWith('/ZZ')) continue; // not a message grpc-js can send
        // a message grpc-js can encode, still invalid: a name off the platform's pattern, an unknown mask field, a bad order_by
        const rpc = await grpc.call(method, path.replace('page_size=many&', ''), body === undefined ? undefined : { name: 'Not A Name!' });
        expect([method, path, rpc.status, rpc.body.code]).toEqual([method, path, 401, 16]);
      }
    } finally {
      grpc.close();
    }
    expect((await call(env.h.url, 'GET', '/__emulator/stats')).body.total).toBe(0);
  });

  it('malformed JSON, __proto__ keys, a wrong content type → 400 code 3', async () => {
    const malformed = await v2('POST', `/iam/v2beta1/groups/${A}`, { raw: '{"name": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(aipError(3, /^Invalid argument: request body is not valid JSON/, 'INVALID_ARGUMENT'));
    const proto = await v2('POST', `/iam/v2beta1/groups/${A}`, { raw: '{"name":"x","__proto__":{"admin":true}}' });
    expect(proto.status).toBe(400);
    expect(proto.body.code).toBe(3);
    const text = await v2('POST', `/iam/v2beta1/groups/${A}`, { raw: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(400);
    expect(text.body).toEqual(aipError(3, /^Invalid argument: unsupported Content-Type/, 'INVALID_ARGUMENT'));
    const array = await v2('PATCH', `/iam/v2beta1/groups/${A}`, { body: [1, 2] });
    expect(array.status).toBe(400);
  });

  it('a body over BODY_LIMIT → 429 code 8 RESOURCE_EXHAUSTED', async () => {
    const res = await v2('POST', `/iam/v2beta1/groups/${A}`, { body: { name: 'big', description: 'x'.repeat(4096) } });
    expect(res.status).toBe(429);
    expect(res.body).toEqual(aipError(8, 'Resource exhausted: request body is larger than the configured limit', 'RESOURCE_EXHAUSTED'));
  });

  it('odd inputs never produce a 500: each gets its answer, errors in the one shape', async () => {
    // [method, path, status, code when an error]
    const odd = [
      ['GET', '/iam/v2beta1/groups/%ZZ', 400, 3],
      // a parameter the list does not know is left alone, however long
      ['GET', `/iam/v2beta1/groups?uidp.ids=${'x'.repeat(300)}`, 200, undefined],
      // repeated and bracketed names: a list, whatever it filters
      ['GET', '/iam/v2beta1/groups?name=a&name=b&name[x]=c', 200, undefined],
      ['POST', '/iam/v2beta1/groups/', 400, 3],
      ['GET', '/iam/v2beta1/groups/', 404, 5],
      ['DELETE', '/iam/v2beta1/roleBindings/..%2F..%2Fetc', 400, 3],
      ['PATCH', `/iam/v2beta1/groups/${A}?updateMask=..,,`, 400, 3],
    ] as const;
    for (const [method, path, status, code] of odd) {
      const res = await v2(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
      expect(res.status, `${method} ${path}`).toBe(status);
      if (code === undefined) expect(res.body.groups, `${method} ${path}`).toEqual(expect.any(Array));
      else {
        expect(res.body.code, `${method} ${path}`).toBe(code);
        expect(res.body.details[0]['@type'], `${method} ${path}`).toBe('type.googleapis.com/google.rpc.ErrorInfo');
      }
    }
  });
});

describe('v2 errors from a broken v1', () => {
  it('v1 down → 503 code 14; v1 too slow → 504 code 4 within V1_TIMEOUT_MS; a non-JSON or oversized answer → 503', async () => {
    const upstream = await startRecordingUpstream();
    // no retries: with a 300 ms deadline, retries of the 502 below could run into it on a busy machine
    // and answer 504 (retries have their own tests)
    const proxy = await startProxy({ V1_BASE_URL: upstream.url, V1_TIMEOUT_MS: '300', V1_MAX_RESPONSE_BYTES: '1000', V1_RETRIES: '0' });
    try {
      upstream.answer = { status: 200, body: '{"items": [', headers: {} };
      const notJson = await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: 't' });
      expect(notJson.status).toBe(503);
      expect(notJson.body).toEqual(aipError(14, 'Unavailable: the v1 backend sent a body that is not JSON (HTTP 200)', 'UNAVAILABLE'));

      upstream.answer = { status: 200, body: JSON.stringify({ items: [{ id: A, name: 'x'.repeat(2000) }] }) };
      const big = await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: 't' });
      expect(big.body).toEqual(aipError(14, 'Unavailable: the v1 backend sent more than 1000 bytes', 'UNAVAILABLE'));

      upstream.answer = { status: 200, body: JSON.stringify({ items: [{ name: 'no id' }] }) };
      const malformed = await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: 't' });
      expect(malformed.body).toEqual(aipError(14, 'Unavailable: the v1 backend sent a malformed groups list', 'UNAVAILABLE'));

      upstream.answer = { status: 502, body: '<html>bad gateway</html>' };
      const html = await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: 't' });
      expect(html.status).toBe(503);

      upstream.answer = { status: 200, body: '{"items":[]}', delayMs: 2000 };
      const started = Date.now();
      const slow = await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: 't' });
      expect(slow.status).toBe(504);
      expect(slow.body).toEqual(aipError(4, 'Deadline exceeded: the v1 backend did not answer in time', 'DEADLINE_EXCEEDED'));
      expect(Date.now() - started).toBeLessThan(1900);

      // the deadline bounds the whole answer: a body that stalls after the headers is cut off too
      upstream.answer = { status: 200, body: JSON.stringify({ items: [{ id: A, name: 'stalled' }] }), stallBodyMs: 2000 };
      const stalledAt = Date.now();
      const stalled = await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: 't' });
      expect(stalled.body).toEqual(aipError(4, 'Deadline exceeded: the v1 backend did not answer in time', 'DEADLINE_EXCEEDED'));
      expect(Date.now() - stalledAt).toBeLessThan(1900);
    } finally {
      await proxy.close();
      await upstream.close();
    }
    const down = await startProxy({ V1_BASE_URL: upstream.url });
    try {
      const res = await call(down.url, 'GET', `/registry/v2beta1/repos/${A}/0123456789abcdef`, { token: 't' });
      expect(res.status).toBe(503);
      expect(res.body).toEqual(aipError(14, 'Unavailable: the v1 backend is unreachable', 'UNAVAILABLE', 'registry.chainguard.dev'));
    } finally {
      await down.close();
    }
  });
});
