import { setImmediate as nextTurn } from 'node:timers/promises';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { LeanTracer } from '../../src/telemetry/lean-tracer.js';
import { spanBatchEncoder } from '../../src/telemetry/otlp-span-encoding.js';
import { OtlpSpanProcessor, type SendBatch, type SpanExportOptions } from '../../src/telemetry/otlp-span-processor.js';
import { otlpTracesFromProtobuf } from '../support/otlp-protobuf.js';
import { until } from '../support/until.js';

/** A processor on a real tracer, its sends, counts and lines recorded. */
function harness(send: SendBatch, opts: Partial<SpanExportOptions> = {}) {
  const counts = { exported: 0, queue_full: 0, export_failed: 0 };
  const lines: string[] = [];
  const encoder = spanBatchEncoder('http/protobuf');
  let added = 0;
  const processor = new OtlpSpanProcessor({
    encoder: {
      contentType: encoder.contentType,
      start: (r, s) => encoder.start(r, s),
      add: (span) => {
        added += 1;
        encoder.add(span);
      },
      finish: () => encoder.finish(),
    },
    send,
    maxQueueSize: 100,
    maxBatchSize: 50,
    scheduleDelayMs: 60_000,
    sliceSize: 10,
    timeoutMs: 60_000,
    exported: (n) => {
      counts.exported += n;
    },
    dropped: (n, why) => {
      counts[why] += n;
    },
    warn: (m) => lines.push(`warn ${m}`),
    info: (m) => lines.push(`info ${m}`),
    ...opts,
  });
  const tracer = new LeanTracer(new AlwaysOnSampler(), processor, resourceFromAttributes({ 'service.name': 't' }), { name: 'v2proxy' });
  const provider = { shutdown: () => processor.shutdown() };
  const end = (n: number) => {
    for (let i = 0; i < n; i += 1) tracer.startSpan(`span ${i}`).end();
  };
  return { processor, counts, lines, end, added: () => added, provider };
}

describe('span export off the request path: queued on end, encoded in slices on later turns, bounded when the collector is not', () => {
  it('ending a span never encodes it: a full batch is encoded on later turns, a slice per turn, and sent once', async () => {
    const bodies: Uint8Array[] = [];
    const h = harness(async (body) => {
      bodies.push(body);
      return 200;
    });
    h.end(50);
    // the batch is full, but nothing was encoded on the turn that ended its spans
    expect(h.added()).toBe(0);
    let turns = 0;
    const counting = (async () => {
      while (bodies.length === 0) {
        turns += 1;
        await nextTurn();
      }
    })();
    await counting;
    // 50 spans, 10 a turn: other work ran between the slices
    expect(turns).toBeGreaterThanOrEqual(5);
    expect(h.counts).toEqual({ exported: 50, queue_full: 0, export_failed: 0 });
    expect(otlpTracesFromProtobuf(bodies[0] as Uint8Array).resourceSpans[0]).toMatchObject({ scopeSpans: [{ spans: expect.any(Array) }] });
    await h.provider.shutdown();
  });

  it('a collector that never answers holds one batch; the rest wait in a bounded queue, the overflow dropped, counted, said once', async () => {
    let sends = 0;
    const h = harness(
      (_body, _type, signal) =>
        new Promise((_resolve, reject) => {
          sends += 1;
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    );
    // what a minute of traffic against a hung collector adds up to
    for (let round = 0; round < 60; round += 1) {
      h.end(100);
      await nextTurn();
    }
    await until(
      async () => sends,
      (n) => n === 1,
      'the first batch sent',
    );
    // one batch in flight, at most the queue's 100 waiting: everything else dropped
    expect(h.counts.exported).toBe(0);
    expect(h.counts.queue_full).toBe(6000 - 50 - 100);
    expect(h.lines).toEqual([expect.stringMatching(/^warn tracing: the span queue is full \(100\)/)]);
    h.processor.abort();
    await h.provider.shutdown();
    expect(sends).toBe(1);
  });

  it('a collector answering 500 loses its batches, counted and said once; when it recovers, export goes on and says so', async () => {
    let status = 500;
    const h = harness(async () => status, { scheduleDelayMs: 1 });
    h.end(50);
    await until(
      async () => h.counts.export_failed,
      (n) => n === 50,
      'a failed batch',
    );
    h.end(50);
    await until(
      async () => h.counts.export_failed,
      (n) => n === 100,
      'a second failed batch',
    );
    status = 200;
    h.end(50);
    await until(
      async () => h.counts.exported,
      (n) => n === 50,
      'a batch taken',
    );
    expect(h.lines).toEqual([
      expect.stringMatching(/^warn tracing: an export failed \(the collector answered 500\)/),
      'info tracing: export works again; 100 spans were lost meanwhile',
    ]);
    await h.provider.shutdown();
  });

  it('a partial batch leaves after its delay, and what is left leaves at shutdown', async () => {
    const sent: number[] = [];
    const h = harness(async (body) => {
      const [first] = otlpTracesFromProtobuf(body).resourceSpans as { scopeSpans: { spans: unknown[] }[] }[];
      sent.push(first?.scopeSpans[0]?.spans.length ?? 0);
      return 200;
    });
    h.end(7);
    await nextTurn();
    expect(sent).toEqual([]);
    await h.provider.shutdown();
    expect(sent).toEqual([7]);
    // closed: a span ended now is not queued
    h.end(1);
    expect(h.counts.exported).toBe(7);
  });
});
