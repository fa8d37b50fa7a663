import { randomFillSync } from 'node:crypto';
import {
  type Attributes,
  type AttributeValue,
  type Context,
  type Exception,
  type HrTime,
  type Link,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  SpanKind,
  type SpanOptions,
  type SpanStatus,
  SpanStatusCode,
  type TimeInput,
  type Tracer,
  TraceFlags,
  type TraceState,
  trace,
} from '@opentelemetry/api';
import type { ReadableSpan, Sampler, TimedEvent } from '@opentelemetry/sdk-trace';

/** What an exporter reads of a finished span (the SDK's ReadableSpan, less what nobody here reads). */
export type FinishedSpan = Omit<ReadableSpan, 'duration' | 'ended' | 'parentSpanContext'> & { readonly parentSpanContext?: SpanContext | undefined };

/** Where finished spans go. */
export interface FinishedSpans {
  onEnd(span: FinishedSpan): void;
}

// the SDK's default limit: a span holds at most this many attributes, events and links
const LIMIT = 128;
// SamplingDecision.RECORD_AND_SAMPLED of the SDK
const RECORD_AND_SAMPLED = 2;

/** Random span and trace ids, hex, cut from one pool of random bytes refilled when used up. */
class RandomIds {
  private pool = Buffer.allocUnsafe(4096);
  private at = this.pool.length;

  next(bytes: 8 | 16): string {
    if (this.at + bytes > this.pool.length) {
      randomFillSync(this.pool);
      this.at = 0;
    }
    const id = this.pool.toString('hex', this.at, this.at + bytes);
    this.at += bytes;
    return id;
  }
}

function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

function timeOf(input: TimeInput | undefined): HrTime {
  if (input === undefined) return hrTime(performance.timeOrigin + performance.now());
  if (Array.isArray(input)) return input as HrTime;
  return hrTime(typeof input === 'number' ? input : input.getTime());
}

const isValue = (v: unknown): v is AttributeValue =>
  typeof v === 'string' ||
  typeof v === 'number' ||
  typeof v === 'boolean' ||
  (Array.isArray(v) && v.every((x) => x == null || ['string', 'number', 'boolean'].includes(typeof x)));

/**
 * A recording span: plain fields, written as it goes, handed as it is to the exporter when it ends
 * (no copy). It keeps the OpenTelemetry API's span contract (attributes, events, links, status,
 * one end).
 */
class LeanSpan implements Span, FinishedSpan {
  readonly attributes: Attributes = {};
  readonly events: TimedEvent[] = [];
  readonly links: Link[];
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  endTime: HrTime = [0, 0];
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  droppedLinksCount = 0;
  private open = true;
  private count = 0;

  constructor(
    private readonly tracer: LeanTracer,
    public name: string,
    readonly kind: SpanKind,
    private readonly context: SpanContext,
    readonly parentSpanContext: SpanContext | undefined,
    readonly startTime: HrTime,
    attributes: Attributes | undefined,
    links: Link[] | undefined,
  ) {
    this.links = links ? links.slice(0, LIMIT) : [];
    if (links && links.length > LIMIT) this.droppedLinksCount = links.length - LIMIT;
    if (attributes) this.setAttributes(attributes);
  }

  get resource() {
    return this.tracer.resource;
  }

  get instrumentationScope() {
    return this.tracer.scope;
  }

  spanContext(): SpanContext {
    return this.context;
  }

  setAttribute(key: string, value: AttributeValue): this {
    if (!this.open || key.length === 0 || !isValue(value)) return this;
    if (!(key in this.attributes)) {
      if (this.count >= LIMIT) {
        this.droppedAttributesCount += 1;
        return this;
      }
      this.count += 1;
    }
    this.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) this.setAttribute(key, attributes[key] as AttributeValue);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (!this.open) return this;
    if (this.events.length >= LIMIT) {
      this.droppedEventsCount += 1;
      return this;
    }
    const timeGiven = attributesOrTime instanceof Date || typeof attributesOrTime === 'number' || Array.isArray(attributesOrTime);
    const attributes = timeGiven ? undefined : (attributesOrTime as Attributes | undefined);
    this.events.push({ name, time: timeOf(timeGiven ? (attributesOrTime as TimeInput) : time), attributes: attributes ?? {}, droppedAttributesCount: 0 });
    return this;
  }

  addLink(link: Link): this {
    if (!this.open) return this;
    if (this.links.length >= LIMIT) this.droppedLinksCount += 1;
    else this.links.push(link);
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    // OK is final; UNSET changes nothing
    if (this.open && this.status.code !== SpanStatusCode.OK && status.code !== SpanStatusCode.UNSET) this.status = { ...status };
    return this;
  }

  updateName(name: string): this {
    if (this.open) this.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (!this.open) return;
    this.open = false;
    this.endTime = timeOf(endTime);
    this.tracer.finished.onEnd(this);
  }

  isRecording(): boolean {
    return this.open;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes =
      typeof exception === 'string'
        ? { 'exception.message': exception }
        : { 'exception.type': exception.name ?? '', 'exception.message': exception.message ?? '', 'exception.stacktrace': exception.stack ?? '' };
    this.addEvent('exception', attributes, time);
  }
}

/**
 * The OpenTelemetry API's tracer, lean: the sampler decides (the SDK's samplers), a recording span
 * is a plain object with random ids from a pooled buffer, and a span the sampler leaves out is the
 * API's non-recording span (its context carried, nothing kept). Parents come from the context
 * given, as the API says.
 */
export class LeanTracer implements Tracer {
  private readonly ids = new RandomIds();

  constructor(
    private readonly sampler: Sampler,
    readonly finished: FinishedSpans,
    readonly resource: FinishedSpan['resource'],
    readonly scope: FinishedSpan['instrumentationScope'],
  ) {}

  startSpan(name: string, options: SpanOptions = {}, context?: Context): Span {
    const parent = options.root || context === undefined ? undefined : trace.getSpanContext(context);
    const traceId = parent?.traceId ?? this.ids.next(16);
    const spanId = this.ids.next(8);
    const kind = options.kind ?? SpanKind.INTERNAL;
    const links = options.links;
    const decision = this.sampler.shouldSample(parent ? (context as Context) : ROOT_CONTEXT, traceId, name, kind, options.attributes ?? {}, links ?? []);
    const traceState: TraceState | undefined = decision.traceState ?? parent?.traceState;
    const sampled = decision.decision === RECORD_AND_SAMPLED;
    const spanContext: SpanContext = { traceId, spanId, traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE, ...(traceState ? { traceState } : {}) };
    // RECORD without SAMPLED is not offered: a span is exported or not made at all
    if (!sampled) return trace.wrapSpanContext(spanContext);
    const attributes = decision.attributes ? { ...options.attributes, ...decision.attributes } : options.attributes;
    return new LeanSpan(this, name, kind, spanContext, parent, timeOf(options.startTime), attributes, links);
  }

  startActiveSpan(): never {
    throw new Error('v2proxy passes contexts explicitly: startActiveSpan is not offered');
  }
}
