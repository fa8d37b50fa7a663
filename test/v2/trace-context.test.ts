import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { traceContextOf } from '../../src/upstream/trace-context.js';
import { call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, TOKENS } from '../support/fixtures.js';
import { startProxy } from '../support/proxy-harness.js';
import { type RecordingHop, startRecordingHop } from '../support/recording-hop.js';

const TRACE = {
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  tracestate: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
  baggage: 'userId=alice,serverNode=DF%2028',
};

const PROTO = join(import.meta.dirname, '../../proto');
const definition = protoLoader.loadSync(['chainguard/platform/iam/v2beta1/groups.proto'], { includeDirs: [PROTO], longs: String, enums: String, oneofs: true });
const iam = (grpc.loadPackageDefinition(definition) as any).chainguard.platform.iam.v2beta1;

describe('W3C trace context reaches every upstream call a request causes, and is never made up', () => {
  let h: EmulatorHarness;
  let v1: RecordingHop;
  let native: RecordingHop;
  let proxy: RunningProxy;
  /** what each backend saw of the request `id`, as [backend, path, trace headers] */
  const upstreamOf = (id: string) =>
    [...v1.seen.map((r) => ['v1', r] as const), ...native.seen.map((r) => ['native', r] as const)]
      .filter(([, r]) => r.headers['x-request-id'] === id)
      .map(([side, r]) => [side, r.url.split('?')[0], { traceparent: r.headers.traceparent, tracestate: r.headers.tracestate, baggage: r.headers.baggage }]);
  const settled = () => new Promise((resolve) => setTimeout(resolve, 200));

  beforeAll(async () => {
    h = await startHarness();
    v1 = await startRecordingHop(h.url);
    native = await startRecordingHop(h.v2url);
    const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-trace-')), 'rollout.yaml');
    // groups translated with every read shadowed natively; roles served natively, shadowed by translation
    writeFileSync(
      file,
      'routes:\n  - resource: groups\n    operations: [list, get]\n    shadow: 100\n  - resource: roles\n    operations: [list, get]\n    native: 100\n    shadow: 100\n',
    );
    proxy = await startProxy({ V1_BASE_URL: v1.url, V2_BASE_URL: native.url, ROLLOUT_FILE: file });
  });
  beforeEach(() => {
    v1.seen.length = 0;
    native.seen.length = 0;
  });
  afterAll(async () => {
    await proxy?.close();
    await v1?.close();
    await native?.close();
    await h?.close();
  });

  it('a translated read, its shadow, a native read and its shadow, a hydrated list, a token exchange: all carry it', async () => {
    const headers = { ...TRACE };
    await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice, headers: { ...headers, 'x-request-id': 'trace-get' } });
    await call(proxy.url, 'GET', `/iam/v2beta1/roles?uidp.descendants_of=${A}`, {
      token: TOKENS.alice,
      headers: { ...headers, 'x-request-id': 'trace-roles' },
    });
    await call(proxy.url, 'GET', `/iam/v2beta1/roleBindings?uidp.descendants_of=${A}`, {
      token: TOKENS.alice,
      headers: { ...headers, 'x-request-id': 'trace-bindings' },
    });
    await call(proxy.url, 'POST', '/sts/exchange', {
      form: { aud: proxy.url },
      headers: { ...headers, 'x-request-id': 'trace-sts', authorization: 'Bearer not-an-oidc-token' },
    });
    await settled();
    const get = upstreamOf('trace-get');
    expect(get.map(([side]) => side).sort()).toEqual(['native', 'v1']);
    const roles = upstreamOf('trace-roles');
    expect(roles.map(([side]) => side)).toContain('native');
    expect(roles.map(([side]) => side)).toContain('v1');
    // the list's own read, and the identities it looks up to hydrate the bindings
    expect(upstreamOf('trace-bindings').map(([, path]) => path)).toEqual(expect.arrayContaining(['/iam/v1/rolebindings', '/iam/v1/identities']));
    expect(upstreamOf('trace-sts').map(([, path]) => path)).toEqual(['/sts/exchange']);
    for (const id of ['trace-get', 'trace-roles', 'trace-bindings', 'trace-sts']) {
      for (const [side, path, trace] of upstreamOf(id)) expect(trace, `${id} ${side} ${path}`).toEqual(TRACE);
    }
  });

  it('a gRPC call carries it from its metadata', async () => {
    const client = new iam.GroupsService(new URL(proxy.url).host, grpc.credentials.createInsecure());
    try {
      const metadata = new grpc.Metadata();
      metadata.set('authorization', TOKENS.alice);
      metadata.set('x-request-id', 'trace-grpc');
      for (const [k, v] of Object.entries(TRACE)) metadata.set(k, v);
      await new Promise((resolve, reject) => client.GetGroup({ uid: A }, metadata, (err: unknown, value: unknown) => (err ? reject(err) : resolve(value))));
    } finally {
      client.close();
    }
    const seen = upstreamOf('trace-grpc');
    expect(seen.length).toBeGreaterThan(0);
    for (const [, , trace] of seen) expect(trace).toEqual(TRACE);
  });

  it('a request without trace headers gets none, and an invalid traceparent is not passed on (baggage stands alone)', async () => {
    await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice, headers: { 'x-request-id': 'no-trace' } });
    await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, {
      token: TOKENS.alice,
      headers: { 'x-request-id': 'bad-trace', traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01', tracestate: 'a=b', baggage: 'k=v' },
    });
    await settled();
    const none = upstreamOf('no-trace');
    expect(none.length).toBeGreaterThan(0);
    for (const [, , trace] of none) expect(trace).toEqual({ traceparent: undefined, tracestate: undefined, baggage: undefined });
    for (const [, , trace] of upstreamOf('bad-trace')) expect(trace).toEqual({ traceparent: undefined, tracestate: undefined, baggage: 'k=v' });
  });
});

describe('trace headers, read', () => {
  it('keeps a valid traceparent with its tracestate, joins repeated list headers, and drops what is invalid or oversized', () => {
    expect(traceContextOf({})).toBeUndefined();
    expect(traceContextOf(TRACE)).toEqual(TRACE);
    expect(traceContextOf({ ...TRACE, tracestate: ['a=1', 'b=2'] })).toEqual({ ...TRACE, tracestate: 'a=1,b=2' });
    for (const bad of [
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra',
      '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01',
      'garbage',
    ]) {
      expect(traceContextOf({ traceparent: bad, tracestate: 'a=b' }), bad).toBeUndefined();
    }
    // a later version may carry more fields
    expect(traceContextOf({ traceparent: '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-more' })?.traceparent).toBeDefined();
    expect(traceContextOf({ baggage: 'x'.repeat(9000) })).toBeUndefined();
  });
});
