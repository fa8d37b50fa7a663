import { type Attributes, createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, type ReadableSpan, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { spanBatchEncoder } from '../../src/telemetry/otlp-span-encoding.js';
import { canonical, fieldsOf } from '../support/otlp-protobuf.js';

/** Finished spans of every shape the proxy makes and more: parents local and remote, links, events, statuses, all attribute types. */
function finishedSpans(count: number): ReadableSpan[] {
  const ended: ReadableSpan[] = [];
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'v2proxy-test', 'service.version': '1.2.3' }),
    sampler: new AlwaysOnSampler(),
    spanProcessors: [{ onStart() {}, onEnd: (s) => ended.push(s), forceFlush: async () => {}, shutdown: async () => {} }],
  });
  const tracer = provider.getTracer('v2proxy', '1.2.3');
  const remote = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
    traceState: createTraceState('vendor=abc,other=x'),
  });
  for (let i = 0; i < count; i += 1) {
    const attributes: Attributes = {
      'http.request.method': 'GET',
      'http.route': `/iam/v2beta1/groups/{uid}`,
      'http.response.status_code': 200 + (i % 300),
      'v2proxy.ratio': 0.25 + i,
      'v2proxy.negative': -i - 1,
      'v2proxy.large': 2 ** 40 + i,
      'v2proxy.flag': i % 2 === 0,
      'v2proxy.words': ['é', 'naïve', `n${i}`],
      'v2proxy.numbers': [1, 2.5, -3],
      'v2proxy.long': 'x'.repeat(i % 7 === 0 ? 300 : 3),
    };
    const server = tracer.startSpan(`GET /groups/${i} ✓`, { kind: SpanKind.SERVER, attributes }, i % 3 === 0 ? remote : ROOT_CONTEXT);
    const client = tracer.startSpan('GET', { kind: SpanKind.CLIENT, attributes: { 'http.request.resend_count': i % 2 } }, trace.setSpan(ROOT_CONTEXT, server));
    client.addEvent('retry', { 'v2proxy.attempt': 2 });
    client.setStatus({ code: SpanStatusCode.ERROR, message: i % 2 === 0 ? 'v1 answered 503' : '' });
    client.end();
    const linked = tracer.startSpan('shadow read native', {
      kind: SpanKind.INTERNAL,
      root: true,
      links: [{ context: server.spanContext(), attributes: { why: 'shadow' } }],
    });
    linked.end();
    server.setStatus({ code: i % 4 === 0 ? SpanStatusCode.OK : SpanStatusCode.UNSET });
    server.end();
  }
  return ended;
}

function ours(protocol: 'http/protobuf' | 'http/json', spans: readonly ReadableSpan[]): Uint8Array {
  const encoder = spanBatchEncoder(protocol);
  const first = spans[0] as ReadableSpan;
  encoder.start(first.resource, first.instrumentationScope);
  for (const s of spans) encoder.add(s);
  return encoder.finish();
}

describe("OTLP encoding straight from finished spans, read as the SDK's own exporter writes them", () => {
  it('protobuf: the same fields and values as the SDK serializer writes (field order and omitted defaults aside), lengths of every size', () => {
    for (const count of [1, 7, 200]) {
      const spans = finishedSpans(count);
      const sdk = ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array;
      const mine = ours('http/protobuf', spans);
      expect(canonical(fieldsOf(mine))).toEqual(canonical(fieldsOf(sdk)));
      if (count === 200) expect(mine.length).toBeGreaterThan(0x4000);
    }
  });

  it("JSON: the same document as the SDK's JSON serializer", () => {
    const spans = finishedSpans(20);
    const sdk = JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(spans) as Uint8Array).toString('utf8'));
    expect(JSON.parse(Buffer.from(ours('http/json', spans)).toString('utf8'))).toEqual(sdk);
  });

  it('an encoder is reused: a second batch is written from the start, the first one left as it was', () => {
    const encoder = spanBatchEncoder('http/protobuf');
    const [a, b] = [finishedSpans(3), finishedSpans(2)];
    const encode = (spans: ReadableSpan[]) => {
      encoder.start((spans[0] as ReadableSpan).resource, (spans[0] as ReadableSpan).instrumentationScope);
      for (const s of spans) encoder.add(s);
      return encoder.finish();
    };
    const first = encode(a);
    const copy = Uint8Array.from(first);
    const second = encode(b);
    expect(first).toEqual(copy);
    expect(canonical(fieldsOf(second))).toEqual(canonical(fieldsOf(ProtobufTraceSerializer.serializeRequest(b) as Uint8Array)));
  });
});
