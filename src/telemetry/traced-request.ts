import type { Outcome } from '../errors/request-outcome.js';
import { type Attributes, type Context, ROOT_CONTEXT, type Span, type SpanContext, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_RPC_METHOD,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_FULL,
} from '@opentelemetry/semantic-conventions';
import type { AttemptSpan, CallSpans, RequestSpans, UpstreamCall } from '../upstream/attempt-spans.js';

// rpc.* beyond rpc.method are still incubating in the conventions: named here, as they advise
export const ATTR_RPC_SYSTEM = 'rpc.system';
export const ATTR_RPC_SERVICE = 'rpc.service';
export const ATTR_RPC_GRPC_STATUS_CODE = 'rpc.grpc.status_code';

/** How a span ended: its HTTP status (a gRPC call's: the one its code stands for) and, for gRPC, its code. */
export interface SpanEnd {
  status: number;
  grpcCode?: number | undefined;
  /** the request's one outcome (`request-outcome.ts`): what says whether the span is an error */
  outcome?: Outcome | undefined;
  attributes?: Attributes | undefined;
}

/** `00-<trace>-<span>-<flags>`: a span as the parent of what a call carries. */
function traceparentOf(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 1) === 1 ? '01' : '00'}`;
}

/** The attributes of an upstream call's target: its server, and its URL or RPC. */
function targetAttributes(call: UpstreamCall): Attributes {
  const attributes: Attributes = { 'v2proxy.backend': call.backend };
  if (call.server) {
    attributes[ATTR_SERVER_ADDRESS] = call.server.address;
    attributes[ATTR_SERVER_PORT] = call.server.port;
  }
  if (call.purpose !== undefined) attributes['v2proxy.purpose'] = call.purpose;
  if (call.protocol === 'grpc') {
    const [, service = '', method = ''] = /^\/([^/]*)\/(.*)$/.exec(call.target) ?? [];
    attributes[ATTR_RPC_SYSTEM] = 'grpc';
    attributes[ATTR_RPC_SERVICE] = service;
    attributes[ATTR_RPC_METHOD] = method;
    return attributes;
  }
  attributes[ATTR_HTTP_REQUEST_METHOD] = call.method;
  attributes[ATTR_URL_FULL] = call.target;
  return attributes;
}

/** One attempt's client span. */
class Attempt implements AttemptSpan {
  readonly traceparent: string;
  private ended = false;

  constructor(private readonly span: Span) {
    this.traceparent = traceparentOf(span.spanContext());
  }

  end(outcome: { status: number } | { grpcCode: number } | { error: string }): void {
    if (this.ended) return;
    this.ended = true;
    const { span } = this;
    if ('status' in outcome) {
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.status);
      if (outcome.status >= 500) {
        span.setAttribute(ATTR_ERROR_TYPE, String(outcome.status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    } else if ('grpcCode' in outcome) {
      span.setAttribute(ATTR_RPC_GRPC_STATUS_CODE, outcome.grpcCode);
      // the server-side failures (as for the rollout guard): UNKNOWN, DEADLINE_EXCEEDED, INTERNAL, UNAVAILABLE, DATA_LOSS
      if ([2, 4, 13, 14, 15].includes(outcome.grpcCode)) {
        span.setAttribute(ATTR_ERROR_TYPE, String(outcome.grpcCode));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    } else {
      span.setAttribute(ATTR_ERROR_TYPE, outcome.error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
    }
    span.end();
  }
}

/**
 * A traced request (or shadow read): its own span, and a client span per attempt of every upstream
 * call it causes, children of it, each attempt's `traceparent` naming its span.
 */
export class TracedRequest implements RequestSpans {
  private readonly parent: Context;
  private ended = false;

  constructor(
    private readonly tracer: Tracer,
    readonly span: Span,
  ) {
    this.parent = trace.setSpan(ROOT_CONTEXT, span);
  }

  get context(): SpanContext {
    return this.span.spanContext();
  }

  call(call: UpstreamCall): CallSpans {
    const name = call.protocol === 'grpc' ? call.target.slice(1) : call.method;
    const attributes = targetAttributes(call);
    return {
      attempt: (resend) =>
        new Attempt(
          this.tracer.startSpan(
            name,
            { kind: SpanKind.CLIENT, attributes: resend > 0 ? { ...attributes, [ATTR_HTTP_REQUEST_RESEND_COUNT]: resend } : attributes },
            this.parent,
          ),
        ),
    };
  }

  end(end: SpanEnd): void {
    if (this.ended) return;
    this.ended = true;
    const { span } = this;
    // set one by one: no object made per span end
    if (end.attributes) span.setAttributes(end.attributes);
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, end.status);
    if (end.grpcCode !== undefined) span.setAttribute(ATTR_RPC_GRPC_STATUS_CODE, end.grpcCode);
    // a server span is an error for what the server failed at (a side's failure, the proxy's own
    // 5xx), not the client's mistakes, its leaving, its deadline or the drain
    if (end.outcome !== undefined) span.setAttribute('v2proxy.outcome', end.outcome);
    const failed = end.outcome === undefined ? end.status >= 500 : end.outcome === 'backend_failure' || (end.outcome === 'refused' && end.status >= 500);
    if (failed) {
      span.setAttribute(ATTR_ERROR_TYPE, String(end.grpcCode ?? end.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }
}
