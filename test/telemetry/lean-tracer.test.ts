import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, type Sampler } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { type FinishedSpan, LeanTracer } from '../../src/telemetry/lean-tracer.js';

function tracer(sampler: Sampler) {
  const ended: FinishedSpan[] = [];
  const t = new LeanTracer(sampler, { onEnd: (s) => ended.push(s) }, resourceFromAttributes({ 'service.name': 't' }), { name: 'v2proxy', version: '1' });
  return { t, ended };
}

const remote = (flags: number) =>
  trace.setSpanContext(ROOT_CONTEXT, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: flags, isRemote: true });

describe('the lean tracer: the OpenTelemetry API over plain spans, the SDK deciding what is sampled', () => {
  it("a child takes its parent's trace, a root a new one; ids are random hex of the right sizes; a span ends once", () => {
    const { t, ended } = tracer(new AlwaysOnSampler());
    const root = t.startSpan('root', { kind: SpanKind.SERVER, attributes: { a: 1 } }, ROOT_CONTEXT);
    const child = t.startSpan('child', { kind: SpanKind.CLIENT }, trace.setSpan(ROOT_CONTEXT, root));
    child.end();
    child.end();
    root.end();
    expect(ended.map((s) => s.name)).toEqual(['child', 'root']);
    const [c, r] = ended as [FinishedSpan, FinishedSpan];
    expect(r.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(r.spanContext().spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(c.spanContext().traceId).toBe(r.spanContext().traceId);
    expect(c.parentSpanContext?.spanId).toBe(r.spanContext().spanId);
    expect(r.parentSpanContext).toBeUndefined();
    expect([r.kind, r.attributes, r.resource.attributes['service.name'], r.instrumentationScope.name]).toEqual([SpanKind.SERVER, { a: 1 }, 't', 'v2proxy']);
    expect(r.endTime[0] * 1e3 + r.endTime[1] / 1e6).toBeGreaterThanOrEqual(r.startTime[0] * 1e3 + r.startTime[1] / 1e6);
  });

  it("parent-based: a client's unsampled trace makes a span that records nothing and carries the client's trace id", () => {
    const { t, ended } = tracer(new ParentBasedSampler({ root: new AlwaysOnSampler() }));
    const off = t.startSpan('x', {}, remote(TraceFlags.NONE));
    expect([off.isRecording(), off.spanContext().traceId, off.spanContext().traceFlags]).toEqual([false, '4bf92f3577b34da6a3ce929d0e0e4736', TraceFlags.NONE]);
    off.end();
    const on = t.startSpan('y', {}, remote(TraceFlags.SAMPLED));
    on.end();
    expect(ended.map((s) => [s.name, s.parentSpanContext?.isRemote])).toEqual([['y', true]]);
    expect(tracer(new AlwaysOffSampler()).t.startSpan('z').isRecording()).toBe(false);
  });

  it('keeps the API contract: invalid attribute values ignored, 128 attributes at most (the rest counted), OK status final, nothing after the end', () => {
    const { t, ended } = tracer(new AlwaysOnSampler());
    const span = t.startSpan('limits', { links: [{ context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 } }] });
    for (let i = 0; i < 130; i += 1) span.setAttribute(`k${i}`, i);
    span.setAttribute('k0', 'replaced');
    span.setAttribute('bad', { nested: true } as never);
    span.addEvent('retry', { attempt: 2 });
    span.setStatus({ code: SpanStatusCode.OK });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'too late' });
    span.end();
    span.setAttribute('after', 1);
    const [s] = ended as [FinishedSpan];
    expect([Object.keys(s.attributes).length, s.droppedAttributesCount, s.attributes.k0, s.attributes.bad, s.attributes.after]).toEqual([
      128,
      2,
      'replaced',
      undefined,
      undefined,
    ]);
    expect([s.status, s.events.map((e) => [e.name, e.attributes]), s.links.length]).toEqual([{ code: SpanStatusCode.OK }, [['retry', { attempt: 2 }]], 1]);
  });
});
