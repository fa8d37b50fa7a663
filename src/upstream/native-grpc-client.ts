import type { DescMethodUnary, Message } from '@bufbuild/protobuf';
import { Code, ConnectError, type Transport } from '@connectrpc/connect';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { apiError } from '../errors/error-registry.js';
import { abortReason, stopOfSignal } from './abort-reason.js';
import type { Stop } from '../errors/request-outcome.js';
import { ANSWER_DOWN, ANSWER_UP, type AttemptEnd, type CallPolicy } from './call-policy.js';
import { type RequestSpans, type UpstreamServer, upstreamServer } from './attempt-spans.js';
import type { LifeSignal } from './request-life.js';
import type { TraceContext } from './trace-context.js';

export interface NativeGrpcCall {
  authorization: string | undefined;
  requestId: string;
  signal?: LifeSignal | undefined;
  trace?: TraceContext | undefined;
  spans?: RequestSpans | undefined;
}

/** What the native backend answered a call: its response message, or the status it ended with (kept as it came). */
export type NativeGrpcAnswer = { message: Message; error?: undefined } | { message?: undefined; error: ConnectError };

// the codes that say the backend failed (the REST 5xx), for the rollout guard
const BACKEND = 'the native v2 backend';

/** How one attempt ended: answered (a message or a status), or no answer (and why). */
type Attempt = { answered: NativeGrpcAnswer } | { failed: 'attempt-timeout' | 'deadline' | 'too-large' | 'unreachable'; error: ConnectError };

const STOPPED: AttemptEnd = { failed: 'stopped' };

/** How an attempt ended, in the policy's terms: UNAVAILABLE is the backend saying it cannot serve (as 503 is over REST). */
function endOf(attempt: Attempt): AttemptEnd {
  if ('answered' in attempt) return attempt.answered.error?.code === Code.Unavailable ? ANSWER_DOWN : ANSWER_UP;
  return { failed: attempt.failed };
}

/**
 * The native v2 backend's gRPC service (the platform serves gRPC and REST on one host): a call goes
 * with the caller's message, `authorization`, `x-request-id` and trace context, over h2c for
 * `http://` and TLS for `https://`, and the answer or status comes back as the backend gave it.
 * Under the same policy as the native REST calls, sharing its parts: each attempt asks the
 * backend's breaker and tells it how it ended (UNAVAILABLE, or no answer, is a failure, as 503 is
 * over REST), must start answering within the attempt timeout, and a read (Get, List) answered
 * UNAVAILABLE or lost to the connection goes again within the retry budget and the call's
 * deadline. No answer at all is the registry's UNAVAILABLE, none by the deadline its
 * DEADLINE_EXCEEDED; an open circuit answers at once.
 */
export class NativeGrpcClient {
  private readonly transport: Transport;
  private readonly sessions: Http2SessionManager;
  private readonly server: UpstreamServer;

  constructor(
    baseUrl: string,
    private readonly opts: { policy: CallPolicy; maxResponseBytes: number; observe?: (status: number | 'error' | Stop) => void },
  ) {
    this.server = upstreamServer(baseUrl);
    // one HTTP/2 session, kept while calls come and closed after a minute without any
    this.sessions = new Http2SessionManager(baseUrl, { idleConnectionTimeoutMs: 60_000 });
    this.transport = createGrpcTransport({ baseUrl, readMaxBytes: opts.maxResponseBytes, sessionManager: this.sessions });
  }

  /** Ends the session (calls under way fail as UNAVAILABLE). */
  close(): void {
    this.sessions.abort();
  }

  async call(method: DescMethodUnary, input: Message, call: NativeGrpcCall): Promise<NativeGrpcAnswer> {
    const { signal } = call;
    const { policy } = this.opts;
    const header: Record<string, string> = { 'x-request-id': call.requestId };
    if (call.authorization) header.authorization = call.authorization;
    if (call.trace) Object.assign(header, call.trace);
    const read = /^(Get|List)/.test(method.name);
    const deadline = Date.now() + policy.deadlineMs;
    const spans = call.spans?.call({
      backend: 'v2',
      protocol: 'grpc',
      method: method.name,
      target: `/${method.parent.typeName}/${method.name}`,
      server: this.server,
    });
    policy.begin();
    for (let done = 0; ; done += 1) {
      if (signal?.aborted) throw abortReason(signal);
      let admitted: 'go' | 'trial';
      try {
        admitted = policy.admit();
      } catch {
        this.opts.observe?.('error');
        throw apiError('BACKEND_CIRCUIT_OPEN', { backend: BACKEND });
      }
      const span = spans?.attempt(done);
      if (span) header.traceparent = span.traceparent;
      // a read stops with its request; a write already sent is let finish, so its outcome is known
      // (a keyed create's record, a verification) even when its client no longer waits for it
      const attempt = await this.attempt(method, input, header, read ? signal : undefined, policy.limit(deadline));
      const stopped = signal?.aborted === true && (read || !('answered' in attempt));
      span?.end('answered' in attempt ? { grpcCode: attempt.answered.error?.code ?? 0 } : { error: stopped ? 'cancelled' : attempt.failed });
      const end = stopped ? STOPPED : endOf(attempt);
      policy.settle(end, admitted);
      if (stopped) {
        this.opts.observe?.(stopOfSignal(signal as LifeSignal));
        throw abortReason(signal as LifeSignal);
      }
      const delay = read ? policy.retryAfter(end, done, deadline) : undefined;
      if (delay === undefined) return this.outcome(attempt);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  private async attempt(
    method: DescMethodUnary,
    input: Message,
    header: Record<string, string>,
    signal: LifeSignal | undefined,
    limit: { ms: number; kind: 'attempt-timeout' | 'deadline' } | undefined,
  ): Promise<Attempt> {
    const started = Date.now();
    const ms = Math.max(1, limit?.ms ?? this.opts.policy.deadlineMs);
    try {
      const res = await this.transport.unary(method, signal as AbortSignal | undefined, ms, header, input as never);
      return { answered: { message: res.message as Message } };
    } catch (err) {
      const e = ConnectError.from(err);
      // an answered status carries grpc-status; anything else never reached an answer
      if (e.metadata.has('grpc-status')) {
        const kept = new ConnectError(e.rawMessage, e.code);
        kept.details = e.details;
        return { answered: { error: kept } };
      }
      if (e.code === Code.DeadlineExceeded || Date.now() - started >= ms) return { failed: limit?.kind ?? 'deadline', error: e };
      if (e.code === Code.ResourceExhausted) return { failed: 'too-large', error: e };
      return { failed: 'unreachable', error: e };
    }
  }

  /** The last attempt's outcome, as the caller sees it. */
  private outcome(attempt: Attempt): NativeGrpcAnswer {
    if ('answered' in attempt) {
      this.opts.observe?.(200);
      return attempt.answered;
    }
    this.opts.observe?.('error');
    switch (attempt.failed) {
      case 'attempt-timeout':
        throw apiError('BACKEND_HANGS', { backend: BACKEND, reason: `no answer within the attempt timeout (${this.opts.policy.attemptMs} ms)` });
      case 'deadline':
        throw apiError('BACKEND_TIMEOUT', { backend: BACKEND });
      case 'too-large':
        throw apiError('BACKEND_ANSWER_TOO_LARGE', { backend: BACKEND, limit: this.opts.maxResponseBytes });
      default:
        throw apiError('BACKEND_UNREACHABLE', { backend: BACKEND });
    }
  }
}
