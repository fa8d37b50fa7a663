import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttp2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { GroupsService } from '../../src/gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { type Answer, call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, TOKENS } from '../support/fixtures.js';
import { type GrpcV2, grpcV2 } from '../support/grpc-v2-call.js';
import { until } from '../support/until.js';
import { startProxy } from '../support/proxy-harness.js';

const ADMIN = 'admin-token-for-grpc-rollout';
const SECRET = 'override-secret-for-grpc-rollout';
const TIMES = 'ignore: [createTime, updateTime]';

/** An unsigned JWT with a subject: the rollout buckets on `sub` without verifying it (the backends do). */
const jwtOf = (sub: string) => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.sig`;

const sideOf = (res: Answer) => res.headers.get('x-v2proxy-backend');

describe('rollout, native serving and shadows over gRPC (grpc-js on h2c, the emulator native surface as the native backend)', () => {
  let h: EmulatorHarness;
  let proxy: RunningProxy;
  let grpc: GrpcV2;
  let file: string;
  let recordFile: string;

  const admin = (method: string, path: string) => call(proxy.url, method, path, { token: ADMIN });
  const reload = async (yaml: string) => {
    writeFileSync(file, yaml);
    const res = await admin('POST', '/admin/rollout/reload');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const rest = (method: string, path: string, token: string, headers: Record<string, string> = {}) => call(proxy.url, method, path, { token, headers });

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'v2proxy-grpc-rollout-'));
    file = join(dir, 'rollout.yaml');
    recordFile = join(dir, 'reads.jsonl');
    writeFileSync(file, 'routes: []\n');
    h = await startHarness();
    proxy = await startProxy({
      V1_BASE_URL: h.url,
      V2_BASE_URL: h.v2url,
      ROLLOUT_FILE: file,
      ADMIN_TOKEN: ADMIN,
      RECORD_FILE: recordFile,
      ROLLOUT_OVERRIDE_SECRET: SECRET,
    });
    grpc = grpcV2(new URL(proxy.url).host, TOKENS.alice);
  });
  beforeEach(async () => {
    await h.dev('DELETE', '/__emulator/faults');
    await admin('POST', '/admin/rollout/resume');
  });
  afterAll(async () => {
    grpc.close();
    await proxy.close();
    await h.close();
  });

  it("0 / 30 / 60 / 100 % over 200 callers bucketed by the bearer's sub: sticky, monotonic, each caller on the same side through both doors", async () => {
    const callers = Array.from({ length: 200 }, (_, i) => jwtOf(`user-${i}`));
    const nativeAt: Set<number>[] = [];
    for (const percent of [0, 30, 60, 100]) {
      await reload(`routes:\n  - resource: groups\n    operations: [get]\n    native: ${percent}\n`);
      const native = new Set<number>();
      for (const [i, token] of callers.entries()) {
        // the platform's SDK sends the token bare; REST sends a bearer
        const viaGrpc = sideOf(await grpc.call('GET', `/iam/v2beta1/groups/${A}`, undefined, { authorization: token }));
        const viaRest = sideOf(await rest('GET', `/iam/v2beta1/groups/${A}`, token));
        expect(viaGrpc, `caller ${i} at ${percent} %`).toBe(viaRest);
        if (viaGrpc === 'native') native.add(i);
        if (i % 20 === 0) expect(sideOf(await grpc.call('GET', `/iam/v2beta1/groups/${A}`, undefined, { authorization: token }))).toBe(viaGrpc);
      }
      nativeAt.push(native);
    }
    const [none, thirty, sixty, all] = nativeAt as [Set<number>, Set<number>, Set<number>, Set<number>];
    expect(none.size).toBe(0);
    expect(thirty.size).toBeGreaterThan(40);
    expect(thirty.size).toBeLessThan(80);
    expect(sixty.size).toBeGreaterThan(100);
    expect(sixty.size).toBeLessThan(140);
    expect(all.size).toBe(200);
    // raising the share only adds callers
    expect([...thirty].filter((i) => !sixty.has(i))).toEqual([]);
  });

  it("the x-v2proxy-backend metadata picks the side with the operators' secret, and the native side answers with its own status, text and details", async () => {
    await reload('allowOverride: true\nroutes: []\n');
    const missing = `/iam/v2beta1/groups/${A}/00000000000000aa`;
    // without the secret the metadata is any client's: nothing is forced
    expect(sideOf(await grpc.call('GET', missing, undefined, { 'x-v2proxy-backend': 'native' }))).toBe('translate');
    const native = await grpc.call('GET', missing, undefined, { 'x-v2proxy-backend': 'native', 'x-v2proxy-override-secret': SECRET });
    const translated = await grpc.call('GET', missing, undefined, { 'x-v2proxy-backend': 'translate', 'x-v2proxy-override-secret': SECRET });
    expect([sideOf(native), sideOf(translated)]).toEqual(['native', 'translate']);
    // what the native backend says to the same call made to it directly
    const direct = grpcV2(new URL(h.v2url).host, TOKENS.alice);
    try {
      expect(native.body).toEqual((await direct.call('GET', missing)).body);
    } finally {
      direct.close();
    }
    expect(native.body).toMatchObject({ code: 5 });
    expect(translated.body).toMatchObject({ code: 5 });
  });

  it('a walk stays on the side that issued its page token across a flip', async () => {
    const walk = (token = '') => grpc.call('GET', `/iam/v2beta1/groups?page_size=1${token === '' ? '' : `&page_token=${encodeURIComponent(token)}`}`);
    await reload('routes:\n  - resource: groups\n    operations: [list]\n    native: 100\n');
    const nativeFirst = await walk();
    expect(sideOf(nativeFirst)).toBe('native');
    await reload('routes:\n  - resource: groups\n    operations: [list]\n    native: 0\n');
    const translatedFirst = await walk();
    expect(sideOf(translatedFirst)).toBe('translate');
    await reload('routes:\n  - resource: groups\n    operations: [list]\n    native: 30\n');
    const [nativeNext, translatedNext] = await Promise.all([walk(nativeFirst.body.nextPageToken), walk(translatedFirst.body.nextPageToken)]);
    expect([sideOf(nativeNext), nativeNext.status]).toEqual(['native', 200]);
    expect([sideOf(translatedNext), translatedNext.status]).toEqual(['translate', 200]);
    expect(nativeNext.body.groups[0].uid).toBe(translatedNext.body.groups[0].uid);
  });

  it('the guard rolls a route back once on native gRPC failures; the kill switch sends every call to translation', async () => {
    // routes no other case sends native (a route's guard keeps its window across reloads)
    await reload(
      'routes:\n  - resource: accountAssociations\n    operations: [get]\n    native: 100\n  - resource: roles\n    operations: [get]\n    native: 100\n' +
        'guard:\n  windowSeconds: 60\n  minRequests: 5\n  maxErrorRate: 0.5\n  cooldownSeconds: 60\n',
    );
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/accountAssociations', status: 503 }] } });
    const answers: [string | null, number][] = [];
    for (let i = 0; i < 7; i += 1) {
      const res = await grpc.call('GET', `/iam/v2beta1/accountAssociations/${A}`);
      answers.push([sideOf(res), res.body.code]);
    }
    // five UNAVAILABLE from the native side, then the translation's own answer
    const translated = answers[5]?.[1];
    expect(answers).toEqual([...Array(5).fill(['native', 14]), ['translate', translated], ['translate', translated]]);
    expect(translated).not.toBe(14);
    const status = (await admin('GET', '/admin/rollout')).body;
    expect(status.routes.find((r: { resource: string }) => r.resource === 'accountAssociations')).toMatchObject({ rolledBack: true, rollbacks: 1 });
    expect((await admin('GET', '/metrics')).body).toMatch(/^v2proxy_rollout_rollbacks_total\{resource="accountAssociations"\} 1$/m);

    const role = `/iam/v2beta1/roles/${A}`;
    expect(sideOf(await grpc.call('GET', role))).toBe('native');
    expect((await admin('POST', '/admin/rollout/kill')).status).toBe(200);
    expect(sideOf(await grpc.call('GET', role))).toBe('translate');
    await admin('POST', '/admin/rollout/resume');
    expect(sideOf(await grpc.call('GET', role))).toBe('native');
  });

  it('a shadowed gRPC read is compared as proto JSON, and a planted difference shows in /admin/diff under the REST field path', async () => {
    await reload(`routes:\n  - resource: identities\n    operations: [get]\n    shadow: 100\n    ${TIMES}\n`);
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/identities', set: { description: 'planted' } }] } });
    const res = await grpc.call('GET', `/iam/v2beta1/identities/${A}/${'0'.repeat(15)}1`);
    expect(sideOf(res)).toBe('translate');
    const alice = await rest('GET', '/iam/v2beta1/identities?page_size=1', TOKENS.alice);
    const uid = alice.body.identities[0].uid as string;
    for (let i = 0; i < 3; i += 1) expect(sideOf(await grpc.call('GET', `/iam/v2beta1/identities/${uid}`))).toBe('translate');
    type Route = { compared: number; errors: number; differed: number; fields: { path: string; reported: boolean }[] };
    // a native circuit an earlier case opened fails shadows fast (errors, not differences) until a
    // trial call closes it: reads go on until three planted differences are compared
    const route = await until(
      async () => {
        const found = ((await admin('GET', '/admin/diff.json')).body.routes as (Route & { resource: string; operation: string })[]).find(
          (r) => r.resource === 'identities' && r.operation === 'get',
        );
        if ((found?.differed ?? 0) < 3) await grpc.call('GET', `/iam/v2beta1/identities/${uid}`);
        return found;
      },
      (r) => (r?.differed ?? 0) >= 3,
      'three planted differences compared',
      20_000,
    );
    expect(route?.differed).toBeGreaterThanOrEqual(3);
    expect(route?.fields.map((f) => f.path)).toEqual(['description']);
  });

  it('an idempotent create retried through the other door gets the first answer, without a second create', async () => {
    const key = `cross-door-${Date.now()}`;
    const first = await call(proxy.url, 'POST', `/iam/v2beta1/groups/${A}`, {
      token: TOKENS.alice,
      headers: { 'idempotency-key': key },
      body: { name: 'cross-door', description: 'once' },
    });
    expect(first.status).toBe(200);
    const again = await grpc.call('POST', `/iam/v2beta1/groups/${A}`, { name: 'cross-door', description: 'once' }, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.body.uid).toBe(first.body.uid);
    const named = await rest('GET', `/iam/v2beta1/groups?uidp.children_of=${A}&name=cross-door`, TOKENS.alice);
    expect(named.body.groups).toHaveLength(1);
    // the same key with another request is refused through either door
    const other = await grpc.call('POST', `/iam/v2beta1/groups/${A}`, { name: 'cross-door', description: 'twice' }, { 'idempotency-key': key });
    expect(other.body).toMatchObject({ code: 3 });
  });

  it('gRPC calls count in v2proxy_requests_total with protocol="grpc" and are recorded in REST form with their protocol', async () => {
    await reload('routes:\n  - resource: groups\n    operations: [get]\n    native: 100\n');
    await grpc.call('GET', `/iam/v2beta1/groups/${A}`);
    await grpc.call('GET', `/iam/v2beta1/groups?uidp.children_of=${A}&page_size=2`);
    const metrics = (await admin('GET', '/metrics')).body as string;
    expect(metrics).toMatch(
      /^v2proxy_requests_total\{protocol="grpc",resource="groups",operation="get",backend="native",status="200",outcome="answered",decision="bucket"\} [1-9]\d*$/m,
    );
    expect(metrics).toMatch(
      /^v2proxy_requests_total\{protocol="grpc",resource="groups",operation="list",backend="translate",status="200",outcome="answered",decision="no-route"\} [1-9]\d*$/m,
    );
    // (the record file is appended after each answer is out: the last line may come a moment after it)
    const listed = `/iam/v2beta1/groups?uidp.childrenOf=${A}&pageSize=2`;
    const lines = await until(
      async () =>
        readFileSync(recordFile, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { url: string; protocol: string; method: string }),
      (read) => read.some((l) => l.url === listed && l.protocol === 'grpc'),
      'the gRPC list in the record file',
    );
    expect(lines).toContainEqual(expect.objectContaining({ method: 'GET', url: `/iam/v2beta1/groups/${A}`, protocol: 'grpc' }));
    expect(lines).toContainEqual(expect.objectContaining({ url: listed, protocol: 'grpc' }));
  });
});

describe('a native gRPC backend that does not answer', () => {
  it('is UNAVAILABLE when nothing listens, DEADLINE_EXCEEDED past V2_TIMEOUT_MS, UNAVAILABLE (hangs) past V2_ATTEMPT_TIMEOUT_MS', async () => {
    const h = await startHarness();
    const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-grpc-down-')), 'rollout.yaml');
    writeFileSync(file, 'routes:\n  - resource: groups\n    operations: [get]\n    native: 100\n');
    // a port nothing listens on: the emulator's v1 port closed
    const closed = await startHarness();
    const closedUrl = closed.v2url;
    await closed.close();
    const down = await startProxy({ V1_BASE_URL: h.url, V2_BASE_URL: closedUrl, ROLLOUT_FILE: file });
    const slow = await startProxy({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, V2_TIMEOUT_MS: '300' });
    const hung = await startProxy({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, V2_TIMEOUT_MS: '30000', V2_ATTEMPT_TIMEOUT_MS: '200' });
    const downCall = grpcV2(new URL(down.url).host, TOKENS.alice);
    const slowCall = grpcV2(new URL(slow.url).host, TOKENS.alice);
    const hungCall = grpcV2(new URL(hung.url).host, TOKENS.alice);
    try {
      const unreachable = await downCall.call('GET', `/iam/v2beta1/groups/${A}`);
      expect(unreachable.body).toMatchObject({ code: 14, message: 'Unavailable: the native v2 backend is unreachable' });
      await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/groups', hang: true }] } });
      const started = performance.now();
      const late = await slowCall.call('GET', `/iam/v2beta1/groups/${A}`);
      expect(late.body).toMatchObject({ code: 4 });
      expect(performance.now() - started).toBeLessThan(5_000);
      // the attempt timeout, as over REST: the backend hangs (not the call's deadline)
      const hanging = await hungCall.call('GET', `/iam/v2beta1/groups/${A}`);
      expect(hanging.body).toMatchObject({
        code: 14,
        message: 'Unavailable: the native v2 backend does not answer (no answer within the attempt timeout (200 ms))',
      });
    } finally {
      downCall.close();
      slowCall.close();
      hungCall.close();
      await down.close();
      await slow.close();
      await hung.close();
      await h.close();
    }
  });
});

describe('what a native gRPC call carries', () => {
  it('the caller message, authorization, x-request-id and trace context go to the native backend; its message comes back unchanged', async () => {
    const seen: Record<string, string | null>[] = [];
    const server = createHttp2Server(
      connectNodeAdapter({
        routes: (router) =>
          router.service(GroupsService, {
            getGroup: (req, hc) => {
              seen.push(Object.fromEntries(['authorization', 'x-request-id', 'traceparent', 'tracestate'].map((k) => [k, hc.requestHeader.get(k)])));
              return { uid: req.uid, name: 'from-native', description: 'as the backend says' };
            },
          }),
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const h = await startHarness();
    const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-grpc-meta-')), 'rollout.yaml');
    writeFileSync(file, 'routes:\n  - resource: groups\n    operations: [get]\n    native: 100\n');
    const proxy = await startProxy({ V1_BASE_URL: h.url, V2_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ROLLOUT_FILE: file });
    const client = grpcV2(new URL(proxy.url).host, 'bare-token');
    try {
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      const res = await client.call('GET', `/iam/v2beta1/groups/${A}`, undefined, { 'x-request-id': 'req-grpc-1', traceparent, tracestate: 'v=1' });
      expect(res.headers.get('x-v2proxy-backend')).toBe('native');
      expect(res.body).toEqual({ uid: A, name: 'from-native', description: 'as the backend says' });
      expect(seen).toEqual([{ authorization: 'Bearer bare-token', 'x-request-id': 'req-grpc-1', traceparent, tracestate: 'v=1' }]);
    } finally {
      client.close();
      await proxy.close();
      await h.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('native gRPC calls under the native backend policy', () => {
  let h: EmulatorHarness;
  let proxy: RunningProxy;
  let grpc: GrpcV2;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'v2proxy-grpc-breaker-'));
    const file = join(dir, 'rollout.yaml');
    // every roles Get native; a guard that never rolls back, so every call reaches the native side
    writeFileSync(file, 'routes:\n  - resource: roles\n    operations: [get]\n    native: 100\nguard:\n  minRequests: 100000\n');
    h = await startHarness();
    proxy = await startProxy({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, ADMIN_TOKEN: ADMIN, V1_BREAKER_OPEN_MS: '60000' });
    grpc = grpcV2(new URL(proxy.url).host, TOKENS.alice);
  });
  afterAll(async () => {
    grpc.close();
    await proxy.close();
    await h.close();
  });

  const nativeCalls = async () => {
    const { requests } = (await call(h.v2url, 'GET', '/__emulator/stats')).body as { requests: Record<string, number> };
    return Object.entries(requests)
      .filter(([key]) => key.startsWith('GET /iam/v2beta1/roles'))
      .reduce((sum, [, n]) => sum + n, 0);
  };

  it("reads retried, then the native backend's breaker opens on failed gRPC attempts: gRPC and REST calls are refused at once, no attempt sent", async () => {
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/roles', status: 503 }] } });
    const role = `/iam/v2beta1/roles/${A}`;
    const first = await grpc.call('GET', role);
    expect(first.body.code).toBe(14);
    // a read answered UNAVAILABLE went again (V1_RETRIES, within the budget)
    expect(await nativeCalls()).toBeGreaterThan(1);
    for (let i = 0; i < 40 && !/^v2proxy_circuit_open\{backend="v2"\} 1$/m.test((await call(proxy.url, 'GET', '/metrics', { token: ADMIN })).body); i += 1) {
      expect((await grpc.call('GET', role)).body.code).toBe(14);
    }
    expect((await call(proxy.url, 'GET', '/metrics', { token: ADMIN })).body).toMatch(/^v2proxy_circuit_open\{backend="v2"\} 1$/m);
    const sent = await nativeCalls();
    const refused = await grpc.call('GET', role);
    expect(refused.body).toMatchObject({ code: 14, message: expect.stringMatching(/circuit/i) });
    const overRest = await call(proxy.url, 'GET', role, { token: TOKENS.alice });
    expect(overRest.status).toBe(503);
    expect(overRest.body.message).toMatch(/circuit/i);
    expect(await nativeCalls()).toBe(sent);
  });
});
