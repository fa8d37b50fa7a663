import type { DescMethodUnary, Message } from '@bufbuild/protobuf';
import { Code, ConnectError, type Transport } from '@connectrpc/connect';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { apiError } from '../errors/error-registry.js';
import { abortReason } from './abort-reason.js';
import type { LifeSignal } from './request-life.js';
import type { TraceContext } from './trace-context.js';

export interface NativeGrpcCall {
  authorization: string | undefined;
  requestId: string;
  signal?: LifeSignal | undefined;
  trace?: TraceContext | undefined;
}

/** What the native backend answered a call: its response message, or the status it ended with (kept as it came). */
export type NativeGrpcAnswer = { message: Message; error?: undefined } | { message?: undefined; error: ConnectError };

// the codes that say the backend failed (the REST 5xx), for the rollout guard
const FAILURES = new Set([Code.Unknown, Code.Internal, Code.Unavailable, Code.DataLoss, Code.DeadlineExceeded]);

const BACKEND = 'the native v2 backend';

/**
 * The native v2 backend's gRPC service (the platform serves gRPC and REST on one host): a call goes
 * with the caller's message, `authorization`, `x-request-id` and trace context, over h2c for
 * `http://` and TLS for `https://`, and the answer or status comes back as the backend gave it. No
 * answer at all is the registry's UNAVAILABLE, none within `timeoutMs` its DEADLINE_EXCEEDED.
 */
export class NativeGrpcClient {
  private readonly transport: Transport;
  private readonly sessions: Http2SessionManager;

  constructor(
    baseUrl: string,
    private readonly opts: { timeoutMs: number; maxResponseBytes: number; observe?: (status: number | 'error') => void },
  ) {
    // one HTTP/2 session, kept while calls come and closed after a minute without any
    this.sessions = new Http2SessionManager(baseUrl, { idleConnectionTimeoutMs: 60_000 });
    this.transport = createGrpcTransport({ baseUrl, readMaxBytes: opts.maxResponseBytes, sessionManager: this.sessions });
  }

  /** Ends the session (calls under way fail as UNAVAILABLE). */
  close(): void {
    this.sessions.abort();
  }

  static failed(answer: NativeGrpcAnswer): boolean {
    return answer.error !== undefined && FAILURES.has(answer.error.code);
  }

  async call(method: DescMethodUnary, input: Message, call: NativeGrpcCall): Promise<NativeGrpcAnswer> {
    const { signal } = call;
    if (signal?.aborted) throw abortReason(signal);
    const header: Record<string, string> = { 'x-request-id': call.requestId };
    if (call.authorization) header.authorization = call.authorization;
    if (call.trace) Object.assign(header, call.trace);
    const started = Date.now();
    try {
      const res = await this.transport.unary(method, signal as AbortSignal | undefined, this.opts.timeoutMs, header, input as never);
      this.opts.observe?.(200);
      return { message: res.message as Message };
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      const e = ConnectError.from(err);
      // an answered status carries grpc-status; anything else never reached an answer
      if (e.metadata.has('grpc-status')) {
        this.opts.observe?.(200);
        const kept = new ConnectError(e.rawMessage, e.code);
        kept.details = e.details;
        return { error: kept };
      }
      this.opts.observe?.('error');
      if (e.code === Code.DeadlineExceeded || Date.now() - started >= this.opts.timeoutMs) throw apiError('BACKEND_TIMEOUT', { backend: BACKEND });
      if (e.code === Code.ResourceExhausted) throw apiError('BACKEND_ANSWER_TOO_LARGE', { backend: BACKEND, limit: this.opts.maxResponseBytes });
      throw apiError('BACKEND_UNREACHABLE', { backend: BACKEND });
    }
  }
}
