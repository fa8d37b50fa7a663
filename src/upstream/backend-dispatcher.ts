import { type Dispatcher, Pool } from 'undici';
import { attemptTimeout } from './attempt-timeout.js';
import { type BreakerOptions, type BreakerState, CircuitBreaker } from './circuit-breaker.js';
import { BackendCallDispatcher, type CallParts } from './backend-call.js';
import { ReadRetries, type RetryOptions, retryReads } from './retry-reads.js';
import { stampRequestId } from './stamp-request-id.js';

export interface BackendDispatcherOptions {
  connections: number;
  /** largest answer read, in bytes (undici aborts beyond it) */
  maxResponseBytes: number;
  attemptTimeoutMs: number;
  /** a call's whole time, retries included (the attempt timeout is capped by it) */
  deadlineMs: number;
  retry: RetryOptions;
  breaker: BreakerOptions;
  onBreaker?: (state: BreakerState) => void;
}

export interface BackendDispatcher {
  dispatcher: Dispatcher;
  /** the backend's breaker, retry budget and timeouts, for its calls that do not go through undici (native gRPC) */
  parts: CallParts;
  /** waits for the calls under way, then closes */
  close(): Promise<void>;
  /** ends every call under way with `reason` (the drain's time is up) */
  destroy(reason: Error): Promise<void>;
}

/**
 * The one place a backend's client is put together, outermost first: a request id on every call,
 * retries of reads (budgeted, jittered, within the deadline), the circuit breaker on each attempt,
 * a timeout per attempt, and one keep-alive pool with the size bound. The v2 path, the readiness
 * probe and the v1 passthrough all go through the same dispatcher, so they share the breaker.
 */
export function backendDispatcher(origin: string, opts: BackendDispatcherOptions): BackendDispatcher {
  // undici's own timeouts bound a call without a deadline of its own (the passthrough streams what
  // v1 sends): set once here rather than copied into every call's options
  const pool = new Pool(origin, {
    connections: opts.connections,
    keepAliveTimeout: 30_000,
    maxResponseSize: opts.maxResponseBytes,
    headersTimeout: opts.deadlineMs,
    bodyTimeout: opts.deadlineMs,
  });
  const breaker = new CircuitBreaker(opts.breaker, opts.onBreaker);
  const retries = new ReadRetries(opts.retry);
  // compose() wraps in order: the last interceptor listed is the outermost
  const composed = pool.compose(
    attemptTimeout(opts.attemptTimeoutMs, opts.deadlineMs),
    breaker.interceptor(),
    retryReads(retries, opts.retry.maxRetries),
    stampRequestId(),
  );
  // the same parts as one handler per call, for the request API every path uses
  const parts: CallParts = { breaker, retries, attemptMs: opts.attemptTimeoutMs, deadlineMs: opts.deadlineMs };
  const dispatcher = new BackendCallDispatcher(pool, composed, parts);
  let destroyed: Promise<void> | undefined;
  return {
    dispatcher,
    parts,
    // a pool the drain's deadline destroyed is closed already
    close: () => destroyed ?? pool.close(),
    destroy: (reason) => {
      destroyed ??= pool.destroy(reason);
      return destroyed;
    },
  };
}
