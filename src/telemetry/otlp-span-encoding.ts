import type { AttributeValue, Attributes, HrTime, Link, SpanContext } from '@opentelemetry/api';
import type { FinishedSpan as ReadableSpan } from './lean-tracer.js';
import { ProtoWriter, writeAscii } from './proto-writer.js';
import type { OtlpProtocol } from './start-tracing.js';

type Resource = ReadableSpan['resource'];
type Scope = ReadableSpan['instrumentationScope'];

/**
 * An OTLP trace export request, written span by span straight from the finished spans (no
 * intermediate object tree), so a batch can be written a slice at a time between other work. One
 * request holds the spans of one resource and instrumentation scope.
 */
export interface SpanBatchEncoder {
  readonly contentType: string;
  start(resource: Resource, scope: Scope): void;
  add(span: ReadableSpan): void;
  /** the request's body; the encoder is ready to start the next */
  finish(): Uint8Array;
}

export function spanBatchEncoder(protocol: OtlpProtocol): SpanBatchEncoder {
  return protocol === 'http/json' ? new JsonSpanEncoder() : new ProtobufSpanEncoder();
}

// the W3C flags in the low byte; bit 8 says whether bit 9 (the parent was remote) is known
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;
const flagsOf = (context: SpanContext | undefined, isRemote: boolean | undefined) =>
  ((context?.traceFlags ?? 0) & 0xff) | HAS_IS_REMOTE | (isRemote ? IS_REMOTE : 0);
// how many attribute keys, and values of one key, have their bytes kept
const KEPT_KEYS = 256;
const KEPT_VALUES = 32;
const nanos = (time: HrTime) => (BigInt(Math.trunc(time[0])) * 1_000_000_000n + BigInt(Math.trunc(time[1]))).toString();

/** OTLP protobuf (`opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest`), into one reused buffer. */
class ProtobufSpanEncoder implements SpanBatchEncoder {
  readonly contentType = 'application/x-protobuf';
  private readonly w = new ProtoWriter();
  /** a span attribute's encoded KeyValue by key and value; null: a key whose values vary */
  private readonly seen = new Map<string, Map<string | number | boolean, Uint8Array> | null>();

  start(resource: Resource, scope: Scope): void {
    const { w } = this;
    w.reset();
    w.tag(1, 2); // resource_spans
    w.fork();
    w.tag(1, 2); // resource
    w.fork();
    this.attributes(1, resource.attributes);
    w.join();
    w.tag(2, 2); // scope_spans
    w.fork();
    w.tag(1, 2); // scope
    w.fork();
    if (scope.name) w.string(1, scope.name);
    if (scope.version) w.string(2, scope.version);
    w.join();
  }

  add(span: ReadableSpan): void {
    const { w } = this;
    const context = span.spanContext();
    w.tag(2, 2); // spans
    w.fork();
    w.hex(1, context.traceId);
    w.hex(2, context.spanId);
    const state = context.traceState?.serialize();
    if (state) w.string(3, state);
    if (span.parentSpanContext?.spanId) w.hex(4, span.parentSpanContext.spanId);
    w.string(5, span.name);
    // the API's kinds start at INTERNAL = 0; OTLP's at UNSPECIFIED = 0
    w.tag(6, 0);
    w.varint(span.kind + 1);
    w.nanos(7, span.startTime);
    w.nanos(8, span.endTime);
    this.attributes(9, span.attributes);
    if (span.droppedAttributesCount > 0) this.count(10, span.droppedAttributesCount);
    for (const event of span.events) {
      w.tag(11, 2);
      w.fork();
      w.nanos(1, event.time);
      w.string(2, event.name);
      if (event.attributes) this.attributes(3, event.attributes);
      if (event.droppedAttributesCount) this.count(4, event.droppedAttributesCount);
      w.join();
    }
    if (span.droppedEventsCount > 0) this.count(12, span.droppedEventsCount);
    for (const link of span.links) this.link(link);
    if (span.droppedLinksCount > 0) this.count(14, span.droppedLinksCount);
    if (span.status.code !== 0 || span.status.message) {
      w.tag(15, 2);
      w.fork();
      if (span.status.message) w.string(2, span.status.message);
      if (span.status.code !== 0) {
        w.tag(3, 0);
        w.varint(span.status.code);
      }
      w.join();
    }
    w.fixed32(16, flagsOf(context, span.parentSpanContext?.isRemote));
    w.join();
  }

  finish(): Uint8Array {
    this.w.join(); // scope_spans
    this.w.join(); // resource_spans
    return this.w.bytes();
  }

  private count(field: number, n: number): void {
    this.w.tag(field, 0);
    this.w.varint(n);
  }

  private link(link: Link): void {
    const { w } = this;
    w.tag(13, 2);
    w.fork();
    w.hex(1, link.context.traceId);
    w.hex(2, link.context.spanId);
    const state = link.context.traceState?.serialize();
    if (state) w.string(3, state);
    if (link.attributes) this.attributes(4, link.attributes);
    if (link.droppedAttributesCount) this.count(5, link.droppedAttributesCount);
    w.fixed32(6, flagsOf(link.context, link.context.isRemote));
    w.join();
  }

  private attributes(field: number, attributes: Attributes): void {
    const { w } = this;
    for (const key in attributes) {
      const value = attributes[key];
      if (this.shortAttribute(field, key, value)) continue;
      w.tag(field, 2); // KeyValue
      w.fork();
      w.string(1, key);
      w.tag(2, 2);
      w.fork();
      this.anyValue(value);
      w.join();
      w.join();
    }
  }

  /**
   * A KeyValue of an ASCII key and a short ASCII string, a small whole number or a boolean (nearly
   * every attribute a request's spans carry), written with its lengths worked out first; false,
   * with nothing written, for any other.
   */
  private shortAttribute(field: number, key: string, value: AttributeValue | undefined): boolean {
    // most attributes repeat from span to span (a method, a route, a side): their bytes are kept
    const seen = field === 9 ? this.seen.get(key) : null;
    const kept = seen?.get(value as string);
    if (kept) {
      this.w.raw(kept);
      return true;
    }
    const start = this.w.position;
    if (!this.writeShort(field, key, value)) return false;
    if (seen === undefined && this.seen.size < KEPT_KEYS) this.seen.set(key, new Map([[value as string, this.w.since(start)]]));
    else if (seen) {
      // a key whose values keep changing (a path, an id) is written afresh every time
      if (seen.size >= KEPT_VALUES) this.seen.set(key, null);
      else seen.set(value as string, this.w.since(start));
    }
    return true;
  }

  private writeShort(field: number, key: string, value: AttributeValue | undefined): boolean {
    let anyLength: number;
    if (typeof value === 'string') anyLength = value.length + 2;
    else if (typeof value === 'boolean') anyLength = 2;
    else if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 0x4000) anyLength = value < 0x80 ? 2 : 3;
    else return false;
    const length = key.length + anyLength + 4;
    if (length >= 0x80) return false;
    const buf = this.w.reserve(length + 2);
    let at = this.w.position;
    buf[at++] = (field << 3) | 2;
    buf[at++] = length;
    buf[at++] = 0x0a;
    buf[at++] = key.length;
    at = writeAscii(buf, at, key);
    if (at < 0) return false;
    buf[at++] = 0x12;
    buf[at++] = anyLength;
    if (typeof value === 'string') {
      buf[at++] = 0x0a;
      buf[at++] = value.length;
      at = writeAscii(buf, at, value);
      if (at < 0) return false;
    } else if (typeof value === 'boolean') {
      buf[at++] = 0x10;
      buf[at++] = value ? 1 : 0;
    } else {
      const n = value as number;
      buf[at++] = 0x18;
      if (n < 0x80) buf[at++] = n;
      else {
        buf[at++] = (n & 0x7f) | 0x80;
        buf[at++] = n >>> 7;
      }
    }
    this.w.moveTo(at);
    return true;
  }

  /** The fields of an AnyValue (a number is an int when it is a whole one, as the SDK's exporter says). */
  private anyValue(value: AttributeValue | undefined | null): void {
    const { w } = this;
    if (typeof value === 'string') w.string(1, value);
    else if (typeof value === 'boolean') {
      w.tag(2, 0);
      w.varint(value ? 1 : 0);
    } else if (typeof value === 'number') {
      if (Number.isInteger(value)) {
        w.tag(3, 0);
        w.int64(value);
      } else w.double(4, value);
    } else if (Array.isArray(value)) {
      w.tag(5, 2); // ArrayValue
      w.fork();
      for (const item of value) {
        w.tag(1, 2);
        w.fork();
        this.anyValue(item);
        w.join();
      }
      w.join();
    }
  }
}

/** OTLP JSON: the protobuf mapping with ids in hex, enums as numbers, 64-bit times as strings. */
class JsonSpanEncoder implements SpanBatchEncoder {
  readonly contentType = 'application/json';
  private head = '';
  private spans: string[] = [];

  start(resource: Resource, scope: Scope): void {
    const scopeJson = JSON.stringify({ name: scope.name, version: scope.version });
    this.head = `{"resourceSpans":[{"resource":{"attributes":${attributesJson(resource.attributes)},"droppedAttributesCount":0},"scopeSpans":[{"scope":${scopeJson},"spans":[`;
    this.spans = [];
  }

  add(span: ReadableSpan): void {
    const context = span.spanContext();
    const out: Record<string, unknown> = {
      traceId: context.traceId,
      spanId: context.spanId,
      parentSpanId: span.parentSpanContext?.spanId || undefined,
      traceState: context.traceState?.serialize(),
      name: span.name,
      kind: span.kind + 1,
      startTimeUnixNano: nanos(span.startTime),
      endTimeUnixNano: nanos(span.endTime),
      attributes: attributeList(span.attributes),
      droppedAttributesCount: span.droppedAttributesCount,
      events: span.events.map((e) => ({
        attributes: attributeList(e.attributes ?? {}),
        name: e.name,
        timeUnixNano: nanos(e.time),
        droppedAttributesCount: e.droppedAttributesCount ?? 0,
      })),
      droppedEventsCount: span.droppedEventsCount,
      status: { code: span.status.code, message: span.status.message },
      links: span.links.map((l) => ({
        attributes: attributeList(l.attributes ?? {}),
        spanId: l.context.spanId,
        traceId: l.context.traceId,
        traceState: l.context.traceState?.serialize(),
        droppedAttributesCount: l.droppedAttributesCount ?? 0,
        flags: flagsOf(l.context, l.context.isRemote),
      })),
      droppedLinksCount: span.droppedLinksCount,
      flags: flagsOf(context, span.parentSpanContext?.isRemote),
    };
    this.spans.push(JSON.stringify(out));
  }

  finish(): Uint8Array {
    const body = Buffer.from(`${this.head}${this.spans.join(',')}]}]}]}`, 'utf8');
    this.spans = [];
    return body;
  }
}

function anyValueJson(value: AttributeValue | undefined | null): object {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: value } : { doubleValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map((v) => anyValueJson(v)) } };
  return {};
}

const attributeList = (attributes: Attributes) => Object.keys(attributes).map((key) => ({ key, value: anyValueJson(attributes[key]) }));
const attributesJson = (attributes: Attributes) => JSON.stringify(attributeList(attributes));
