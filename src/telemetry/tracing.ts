import { type Attributes, createTraceState, ROOT_CONTEXT, SpanKind, type Tracer, TraceFlags, trace } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_ROUTE } from '@opentelemetry/semantic-conventions';
import type { TraceContext } from '../upstream/trace-context.js';
import { TracedRequest } from './traced-request.js';

/** What a request's server span starts with. */
export interface SpanStart {
  name: string;
  /** when the request came, ms since the epoch */
  startTime: number;
  attributes: Attributes;
  /** the client's trace headers, as checked (`traceContextOf`): its `traceparent` is the span's remote parent */
  trace: TraceContext | undefined;
}

/** The trace id of a valid `traceparent` (`00-<trace id>-<span id>-<flags>`). */
export function traceIdOf(context: TraceContext | undefined): string | undefined {
  return context?.traceparent?.slice(3, 35);
}

/** The remote parent a valid `traceparent` names (version 00's fields; a later version's extra fields ignored). */
function remoteParent(context: TraceContext | undefined) {
  const traceparent = context?.traceparent;
  const tracestate = context?.tracestate;
  if (traceparent === undefined) return undefined;
  const [, traceId, spanId, flags] = traceparent.split('-');
  if (traceId === undefined || spanId === undefined || flags === undefined) return undefined;
  return {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED,
    isRemote: true,
    ...(tracestate !== undefined ? { traceState: createTraceState(tracestate) } : {}),
  };
}

/**
 * The proxy's tracing, when an OTLP endpoint is set: a server span per request (the client's
 * `traceparent` its parent, the sampler's decision kept), and for a shadow read a span of its own
 * trace, linked to the request it shadows. A request the sampler leaves out is not traced at all:
 * its calls forward the client's trace headers as they came.
 */
export class Tracing {
  constructor(
    private readonly tracer: Tracer,
    private readonly provider: { shutdown(): Promise<void> },
  ) {}

  /** The server span of a request, or undefined when the sampler leaves it out. */
  request(start: SpanStart): TracedRequest | undefined {
    const parent = remoteParent(start.trace);
    const context = parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
    const span = this.tracer.startSpan(start.name, { kind: SpanKind.SERVER, attributes: start.attributes, startTime: start.startTime }, context);
    return span.isRecording() ? new TracedRequest(this.tracer, span) : undefined;
  }

  /** The server span of an HTTP request, named `<method> <route>` with both as attributes (and any others). */
  httpRequest(
    method: string,
    route: string,
    context: TraceContext | undefined,
    attributes: Attributes = {},
    startTime = Date.now(),
  ): TracedRequest | undefined {
    return this.request({
      name: `${method} ${route}`,
      startTime,
      attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_HTTP_ROUTE]: route, ...attributes },
      trace: context,
    });
  }

  /** A shadow read's span: a trace of its own (it runs after the answer), linked to the request it shadows. */
  linked(to: TracedRequest, name: string, attributes: Attributes): TracedRequest | undefined {
    const span = this.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes, root: true, links: [{ context: to.context }] });
    return span.isRecording() ? new TracedRequest(this.tracer, span) : undefined;
  }

  /** Exports what is left, then stops. */
  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}
