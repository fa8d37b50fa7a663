import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { startTracing } from '../../src/telemetry/start-tracing.js';
import { call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, childUid, TOKENS } from '../support/fixtures.js';
import { type GrpcV2, grpcV2 } from '../support/grpc-v2-call.js';
import { type CollectedSpan, type OtlpCollector, startOtlpCollector } from '../support/otlp-collector.js';
import { LogCapture, startProxy } from '../support/proxy-harness.js';
import { type RecordingHop, startRecordingHop } from '../support/recording-hop.js';
import { until } from '../support/until.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const traceparent = (traceId = TRACE_ID) => `00-${traceId}-${CLIENT_SPAN}-01`;
const SERVER = 2;
const CLIENT = 3;
const INTERNAL = 1;

describe.each(['http/protobuf', 'http/json'])(
  'OpenTelemetry over OTLP/HTTP (%s): a server span per request, a client span per upstream attempt',
  (protocol) => {
    let h: EmulatorHarness;
    let v1: RecordingHop;
    let collector: OtlpCollector;
    let proxy: RunningProxy;
    let grpc: GrpcV2;
    const logs = new LogCapture();
    // the first v1 read of the retried role is answered 503 by the hop
    let failNext = false;

    const trace = (traceId: string) => collector.spans.filter((s) => s.traceId === traceId);
    const spansOf = (traceId: string, count: number) =>
      until(
        async () => trace(traceId),
        (spans) => spans.length >= count,
        `${count} spans of ${traceId}`,
      );
    const childrenOf = (spans: CollectedSpan[], parent: CollectedSpan) => spans.filter((s) => s.parentSpanId === parent.spanId);
    /** A call to the proxy in the trace `traceId` (the client's span its parent), as alice unless told. */
    const traced = (method: string, path: string, traceId: string, opts: { token?: string; body?: unknown } = {}) =>
      call(proxy.url, method, path, { token: TOKENS.alice, ...opts, headers: { traceparent: traceparent(traceId) } });

    beforeAll(async () => {
      h = await startHarness();
      collector = await startOtlpCollector();
      v1 = await startRecordingHop(h.url, (r) => {
        if (!failNext || !r.url.startsWith('/iam/v1/roles')) return undefined;
        failNext = false;
        return 503;
      });
      const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-tracing-')), 'rollout.yaml');
      // identities shadowed natively (every read); repos served natively
      writeFileSync(
        file,
        'routes:\n  - resource: identities\n    operations: [get]\n    shadow: 100\n  - resource: repos\n    operations: [get]\n    native: 100\n',
      );
      proxy = await startProxy(
        {
          V1_BASE_URL: v1.url,
          V2_BASE_URL: h.v2url,
          ROLLOUT_FILE: file,
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_SERVICE_NAME: 'v2proxy-under-test',
          OTEL_BSP_SCHEDULE_DELAY: '20',
          OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
          LOG_LEVEL: 'info',
        },
        logs,
      );
      grpc = grpcV2(new URL(proxy.url).host, TOKENS.alice);
    });
    beforeEach(() => {
      v1.seen.length = 0;
    });
    afterAll(async () => {
      grpc?.close();
      await proxy?.close();
      await v1?.close();
      await collector?.close();
      await h?.close();
    });

    it("a translated Get: one server span under the client's, a client span under it, and the traceparent v1 received names that client span", async () => {
      const res = await traced('GET', `/iam/v2beta1/groups/${A}`, TRACE_ID);
      expect(res.status).toBe(200);
      const spans = await spansOf(TRACE_ID, 2);
      const server = spans.find((s) => s.kind === SERVER) as CollectedSpan;
      expect(server).toMatchObject({
        name: 'GET /iam/v2beta1/groups/{uid}',
        parentSpanId: CLIENT_SPAN,
        service: 'v2proxy-under-test',
        attributes: {
          'http.request.method': 'GET',
          'http.route': '/iam/v2beta1/groups/{uid}',
          'http.response.status_code': 200,
          'v2proxy.side': 'translate',
          'v2proxy.decision': 'no-route',
          'v2proxy.resource': 'groups',
        },
      });
      const clients = childrenOf(spans, server);
      expect(clients.length).toBeGreaterThanOrEqual(1);
      for (const c of clients) {
        expect(c).toMatchObject({
          kind: CLIENT,
          name: 'GET',
          attributes: { 'v2proxy.backend': 'v1', 'http.response.status_code': 200, 'server.address': '127.0.0.1' },
        });
        expect(c.attributes['url.full']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/iam\/v1\/groups$/);
        expect(c.attributes['http.request.resend_count']).toBeUndefined();
      }
      const received = v1.seen.map((r) => r.headers.traceparent);
      expect(received.sort()).toEqual(clients.map((c) => `00-${TRACE_ID}-${c.spanId}-01`).sort());
    });

    it(`exports as ${protocol}, and each request's log line names its trace and server span as exported`, async () => {
      const traceId = '5bf92f3577b34da6a3ce929d0e0e4737';
      expect((await traced('GET', `/iam/v2beta1/groups/${A}`, traceId)).status).toBe(200);
      const server = (await spansOf(traceId, 2)).find((s) => s.kind === SERVER) as CollectedSpan;
      const line = logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.trace_id === traceId);
      expect(line).toMatchObject({ msg: 'request completed', trace_id: server.traceId, span_id: server.spanId, trace_flags: '01' });
      expect(new Set(collector.contentTypes)).toEqual(new Set([protocol === 'http/json' ? 'application/json' : 'application/x-protobuf']));
    });

    it('a retried v1 read: one client span per attempt, the second with http.request.resend_count 1', async () => {
      const traceId = '11111111111111111111111111111111';
      failNext = true;
      const res = await traced('GET', '/iam/v2beta1/roles?page_size=1', traceId);
      expect(res.status).toBe(200);
      const spans = await until(
        async () => trace(traceId),
        (s) =>
          s.filter((x) => x.kind === CLIENT && x.attributes['url.full']?.toString().endsWith('/iam/v1/roles')).length >= 2 && s.some((x) => x.kind === SERVER),
        'the attempts',
      );
      const server = spans.find((s) => s.kind === SERVER) as CollectedSpan;
      const attempts = childrenOf(spans, server).filter((s) => String(s.attributes['url.full']).endsWith('/iam/v1/roles'));
      expect(attempts.map((a) => [a.attributes['http.response.status_code'], a.attributes['http.request.resend_count']])).toEqual([
        [503, undefined],
        [200, 1],
      ]);
      // each attempt carried its own span as the parent
      const received = v1.seen.filter((r) => r.url.startsWith('/iam/v1/roles')).map((r) => r.headers.traceparent);
      expect(received).toEqual(attempts.map((a) => `00-${traceId}-${a.spanId}-01`));
    });

    it("a shadowed read: the shadow is a span of its own trace, linked to the request's, with its native client span under it", async () => {
      const traceId = '22222222222222222222222222222222';
      const res = await traced('GET', `/iam/v2beta1/identities/${childUid(A, 'alice')}`, traceId);
      expect(res.status).toBe(200);
      const server = (await spansOf(traceId, 1)).find((s) => s.kind === SERVER) as CollectedSpan;
      const shadow = await until(
        async () => collector.spans.find((s) => s.kind === INTERNAL && s.links.some((l) => l.spanId === server.spanId)),
        (s) => s !== undefined,
        'the shadow span',
      );
      expect(shadow).toMatchObject({ name: 'shadow read native', parentSpanId: '', links: [{ traceId, spanId: server.spanId }] });
      expect(shadow?.traceId).not.toBe(traceId);
      const under = await until(
        async () => collector.spans.filter((s) => s.parentSpanId === shadow?.spanId),
        (s) => s.length >= 1,
        "the shadow's native call",
      );
      expect(under[0]).toMatchObject({ kind: CLIENT, attributes: { 'v2proxy.backend': 'v2' } });
    });

    it('a gRPC Get served natively: the server span names the RPC, the native attempt is a gRPC client span', async () => {
      const traceId = '33333333333333333333333333333333';
      const res = await grpc.call('GET', `/registry/v2beta1/repos/${childUid(A, 'repo-nginx')}`, undefined, { traceparent: traceparent(traceId) });
      expect(res.headers.get('x-v2proxy-backend')).toBe('native');
      const spans = await spansOf(traceId, 2);
      const server = spans.find((s) => s.kind === SERVER) as CollectedSpan;
      expect(server).toMatchObject({
        name: 'chainguard.platform.registry.v2beta1.ReposService/GetRepo',
        parentSpanId: CLIENT_SPAN,
        attributes: { 'rpc.system': 'grpc', 'rpc.method': 'GetRepo', 'rpc.grpc.status_code': 0, 'v2proxy.side': 'native', 'v2proxy.decision': 'bucket' },
      });
      expect(childrenOf(spans, server)).toEqual([
        expect.objectContaining({
          kind: CLIENT,
          name: 'chainguard.platform.registry.v2beta1.ReposService/GetRepo',
          attributes: expect.objectContaining({ 'rpc.system': 'grpc', 'rpc.grpc.status_code': 0, 'v2proxy.backend': 'v2' }),
        }),
      ]);
    });

    it("a token exchange: its server span, and the issuer's attempt as a client span of purpose token-exchange", async () => {
      const traceId = '55555555555555555555555555555555';
      const res = await traced('GET', '/sts/exchange?aud=x&identity=y', traceId, { token: 'not.a.jwt' });
      expect(res.status).toBe(401);
      const spans = await spansOf(traceId, 2);
      const server = spans.find((s) => s.kind === SERVER) as CollectedSpan;
      expect(server).toMatchObject({ name: 'GET /sts/exchange', parentSpanId: CLIENT_SPAN, attributes: { 'http.response.status_code': 401 } });
      expect(childrenOf(spans, server)).toEqual([
        expect.objectContaining({
          kind: CLIENT,
          attributes: expect.objectContaining({ 'v2proxy.purpose': 'token-exchange', 'http.response.status_code': 401 }),
        }),
      ]);
    });

    it('the v1 passthrough, a read off the socket and a write through its route: a server span each, the attempt at v1 under it', async () => {
      for (const [traceId, method, path] of [
        ['66666666666666666666666666666666', 'GET', `/iam/v1/groups?id=${A}`],
        ['77777777777777777777777777777777', 'POST', `/iam/v1/groups/${A}`],
      ] as const) {
        const res = await traced(method, path, traceId, method === 'POST' ? { body: {} } : {});
        const spans = await spansOf(traceId, 2);
        const server = spans.find((s) => s.kind === SERVER) as CollectedSpan;
        expect(server, method).toMatchObject({
          name: `${method} /iam/v1/*`,
          parentSpanId: CLIENT_SPAN,
          attributes: { 'http.route': '/iam/v1/*', 'v2proxy.decision': 'passthrough', 'http.response.status_code': res.status },
        });
        const [attempt] = childrenOf(spans, server);
        expect(attempt, method).toMatchObject({ kind: CLIENT, name: method, attributes: { 'v2proxy.backend': 'v1', 'http.response.status_code': res.status } });
        const received = v1.seen.filter((r) => r.method === method && r.url.startsWith(path.split('?')[0] as string)).map((r) => r.headers.traceparent);
        expect(received, method).toEqual([`00-${traceId}-${attempt?.spanId}-01`]);
      }
    });

    it('a hydrated Get: the identity lookup is a client span of its own purpose', async () => {
      const traceId = '44444444444444444444444444444444';
      const res = await traced('GET', `/iam/v2beta1/roleBindings/${childUid(A, 'rb-alice')}`, traceId);
      expect(res.status).toBe(200);
      const spans = await until(
        async () => trace(traceId),
        (s) => s.some((x) => x.attributes['v2proxy.purpose'] === 'lookup'),
        'the lookup span',
      );
      const server = spans.find((s) => s.kind === SERVER) as CollectedSpan;
      const lookup = spans.find((s) => s.attributes['v2proxy.purpose'] === 'lookup');
      expect(lookup).toMatchObject({ kind: CLIENT, parentSpanId: server.spanId });
      expect(String(lookup?.attributes['url.full'])).toMatch(/\/iam\/v1\/identities$/);
    });
  },
);

describe('OpenTelemetry off', () => {
  it('no endpoint: no tracing is started (no SDK module is loaded)', async () => {
    const base = {
      serviceName: 'x',
      serviceVersion: '0',
      sampler: 'always_on' as const,
      samplerArg: 1,
      scheduleDelayMs: 10,
      protocol: 'http/protobuf' as const,
      headers: undefined,
      maxQueueSize: 10,
      maxBatchSize: 10,
      exportTimeoutMs: 10,
      counted: () => {},
      warn: () => {},
      info: () => {},
    };
    expect(await startTracing({ ...base, endpoint: undefined, tracesEndpoint: undefined })).toBeUndefined();
  });

  it("a sampler that keeps nothing exports nothing, and the client's traceparent goes to v1 as it came", async () => {
    const h = await startHarness();
    const collector = await startOtlpCollector();
    const v1 = await startRecordingHop(h.url);
    const logs = new LogCapture();
    const proxy = await startProxy(
      {
        V1_BASE_URL: v1.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_TRACES_SAMPLER: 'parentbased_always_off',
        OTEL_BSP_SCHEDULE_DELAY: '10',
        LOG_LEVEL: 'info',
      },
      logs,
    );
    try {
      // the client's own flag says not sampled: parentbased follows it
      const notSampled = `00-${TRACE_ID}-${CLIENT_SPAN}-00`;
      expect((await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice, headers: { traceparent: notSampled } })).status).toBe(200);
      expect((await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice })).status).toBe(200);
      expect(v1.seen.map((r) => r.headers.traceparent)).toEqual([notSampled, undefined]);
      // not traced here: its line still names the client's trace, so the client's trace finds it
      const lines = logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request completed');
      expect(lines.map((l) => [l.trace_id, l.span_id])).toEqual([
        [TRACE_ID, undefined],
        [undefined, undefined],
      ]);
    } finally {
      await proxy.close();
      await v1.close();
      await h.close();
    }
    // closed: whatever was to be exported has been
    expect(collector.spans).toEqual([]);
    await collector.close();
  });
});

describe('OpenTelemetry with a collector that is down, hung or failing: requests go on, spans are dropped, counted and said once', () => {
  for (const kind of ['down', 'hung', 'failing'] as const) {
    it(`a collector ${kind}`, async () => {
      const h = await startHarness();
      const sockets = new Set<import('node:net').Socket>();
      const collector = createServer((req, res) => {
        req.resume();
        if (kind === 'failing') req.on('end', () => res.writeHead(500).end());
      });
      collector.on('connection', (s) => sockets.add(s));
      await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
      if (kind === 'down') await new Promise((resolve) => collector.close(resolve));
      const logs = new LogCapture();
      const proxy = await startProxy(
        {
          V1_BASE_URL: h.url,
          OTEL_EXPORTER_OTLP_ENDPOINT: url,
          OTEL_BSP_SCHEDULE_DELAY: '5',
          OTEL_BSP_MAX_QUEUE_SIZE: '40',
          OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '20',
          OTEL_BSP_EXPORT_TIMEOUT: '600000',
          LOG_LEVEL: 'warn',
        },
        logs,
      );
      try {
        // 150 requests, 300 spans or more: every one answered while the collector takes nothing
        for (let i = 0; i < 150; i += 1) expect((await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice })).status).toBe(200);
        const dropped = await until(
          async () => (await call(proxy.url, 'GET', '/metrics')).body as string,
          (m) => /^v2proxy_trace_spans_dropped_total\{reason="(queue_full|export_failed)"\} \d+/m.test(m),
          'spans counted as dropped',
        );
        const total = [...dropped.matchAll(/^v2proxy_trace_spans_dropped_total\{reason="\w+"\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
        // a hung collector holds one batch and the queue; the rest is dropped at once
        if (kind === 'hung') expect(total).toBeGreaterThanOrEqual(300 - 20 - 40);
        expect(dropped).toMatch(/^v2proxy_trace_spans_exported_total 0$/m);
        expect(logs.lines.filter((l) => l.includes('tracing:'))).toHaveLength(1);
      } finally {
        for (const s of sockets) s.destroy();
        await proxy.close();
        await h.close();
        if (kind !== 'down') await new Promise((resolve) => collector.close(resolve));
      }
    });
  }
});
