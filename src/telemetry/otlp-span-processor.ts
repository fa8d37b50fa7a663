import { setImmediate as nextTurn } from 'node:timers/promises';
import { TraceFlags } from '@opentelemetry/api';
import type { FinishedSpan, FinishedSpans } from './lean-tracer.js';
import type { SpanBatchEncoder } from './otlp-span-encoding.js';

/** Why spans never reached the collector: the queue was full, or the collector refused or failed the export. */
export type SpanDrop = 'queue_full' | 'export_failed';

/** Sends one encoded batch; resolves to the HTTP status, rejects when there is none (down, timed out). */
export type SendBatch = (body: Uint8Array, contentType: string, signal: AbortSignal) => Promise<number>;

export interface SpanExportOptions {
  encoder: SpanBatchEncoder;
  send: SendBatch;
  /** finished spans waiting at most; beyond that new ones are dropped, never held */
  maxQueueSize: number;
  /** spans per export request */
  maxBatchSize: number;
  /** how long a span waits for its batch to fill, ms */
  scheduleDelayMs: number;
  /** spans encoded per turn of the event loop: other work runs between slices */
  sliceSize: number;
  /** how long one export may take, ms */
  timeoutMs: number;
  exported(count: number): void;
  dropped(count: number, why: SpanDrop): void;
  /** a line for the operator: said once when spans start being lost, and once when export works again */
  warn(message: string): void;
  info(message: string): void;
}

/**
 * Batches finished spans and exports them over OTLP/HTTP, never on a request's turn of the event
 * loop: `onEnd` only queues (or drops, counted, when the queue is full); batches are encoded a slice
 * at a time on later turns and sent one at a time. What a down or slow collector costs is bounded:
 * the queue, one batch in flight, one timeout. A failed batch is dropped, not retried: a retry would
 * hold the memory the queue bounds.
 */
export class OtlpSpanProcessor implements FinishedSpans {
  private queue: FinishedSpan[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  private readonly stop = new AbortController();
  /** spans lost since export last worked, when some were: the outage being told about */
  private lost = 0;

  constructor(private readonly opts: SpanExportOptions) {}

  onEnd(span: FinishedSpan): void {
    if (this.closed || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.queue.length >= this.opts.maxQueueSize) {
      this.drop(1, 'queue_full');
      return;
    }
    this.queue.push(span);
    if (!this.running) this.schedule();
  }

  /** Exports everything queued now (at close: what is left). */
  async forceFlush(): Promise<void> {
    await this.running;
    while (this.queue.length > 0 && !this.stop.signal.aborted) {
      this.kick();
      await this.running;
    }
  }

  async shutdown(): Promise<void> {
    if (this.closed) return;
    await this.forceFlush();
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** Stops an export in flight (the process is going away). */
  abort(): void {
    this.stop.abort();
  }

  /** A full batch leaves now; a partial one after its delay. */
  private schedule(): void {
    if (this.queue.length >= this.opts.maxBatchSize) this.kick();
    else this.timer ??= setTimeout(() => this.kick(), this.opts.scheduleDelayMs).unref();
  }

  private kick(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running) return;
    // never on the turn that ended the span
    this.running = nextTurn()
      .then(() => this.drain())
      .finally(() => {
        this.running = undefined;
        if (this.queue.length > 0 && !this.closed) this.schedule();
      });
  }

  private async drain(): Promise<void> {
    // full batches go at once; a partial one waits for its delay (or the flush)
    do {
      const batch = this.queue.splice(0, this.opts.maxBatchSize);
      if (batch.length === 0) return;
      await this.export(batch);
    } while (this.queue.length >= this.opts.maxBatchSize && !this.stop.signal.aborted);
  }

  private async export(batch: FinishedSpan[]): Promise<void> {
    let sent = 0;
    try {
      for (const group of groups(batch)) {
        const body = await this.encode(group);
        const status = await this.opts.send(body, this.opts.encoder.contentType, AbortSignal.any([this.stop.signal, AbortSignal.timeout(this.opts.timeoutMs)]));
        if (status < 200 || status > 299) throw new Error(`the collector answered ${status}`);
        this.opts.exported(group.length);
        sent += group.length;
      }
      if (this.lost > 0) this.opts.info(`tracing: export works again; ${this.lost} spans were lost meanwhile`);
      this.lost = 0;
    } catch (err) {
      // what an earlier request of the batch took was counted as exported
      this.drop(batch.length - sent, 'export_failed', (err as Error).message);
    }
  }

  private async encode(spans: readonly FinishedSpan[]): Promise<Uint8Array> {
    const { encoder, sliceSize } = this.opts;
    const first = spans[0] as FinishedSpan;
    encoder.start(first.resource, first.instrumentationScope);
    for (let i = 0; i < spans.length; i += 1) {
      if (i > 0 && i % sliceSize === 0) await nextTurn();
      encoder.add(spans[i] as FinishedSpan);
    }
    return encoder.finish();
  }

  private drop(count: number, why: SpanDrop, detail?: string): void {
    this.opts.dropped(count, why);
    if (this.lost === 0)
      this.opts.warn(
        why === 'queue_full'
          ? `tracing: the span queue is full (${this.opts.maxQueueSize}); new spans are dropped until export catches up (v2proxy_trace_spans_dropped_total)`
          : `tracing: an export failed (${detail}); its spans are dropped, and so are further ones until export works again (v2proxy_trace_spans_dropped_total)`,
      );
    this.lost += count;
  }
}

/** The spans of a batch by resource and instrumentation scope, in order: one export request each. */
function groups(batch: readonly FinishedSpan[]): FinishedSpan[][] {
  const first = batch[0];
  if (first && batch.every((s) => s.resource === first.resource && s.instrumentationScope === first.instrumentationScope)) return [batch as FinishedSpan[]];
  const by = new Map<string, FinishedSpan[]>();
  const resources = new Map<unknown, number>();
  for (const s of batch) {
    const r = resources.get(s.resource) ?? resources.set(s.resource, resources.size).size - 1;
    const key = `${r}\n${s.instrumentationScope.name}\n${s.instrumentationScope.version ?? ''}`;
    const list = by.get(key);
    if (list) list.push(s);
    else by.set(key, [s]);
  }
  return [...by.values()];
}
