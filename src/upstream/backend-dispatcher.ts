import { type Dispatcher, Pool } from 'undici';
import { BackendCallDispatcher } from './backend-call.js';
import { CallPolicy, type CallPolicyOptions } from './call-policy.js';

export interface BackendDispatcherOptions extends CallPolicyOptions {
  connections: number;
  /** largest answer read, in bytes (undici aborts beyond it) */
  maxResponseBytes: number;
}

export interface BackendDispatcher {
  dispatcher: Dispatcher;
  /** the backend's policy, for its calls that do not go through undici (native gRPC) */
  policy: CallPolicy;
  /** waits for the calls under way, then closes */
  close(): Promise<void>;
  /** ends every call under way with `reason` (the drain's time is up) */
  destroy(reason: Error): Promise<void>;
}

/**
 * The one place a backend's client is put together: its policy (retries of reads within a budget,
 * the circuit breaker, the attempt timeout and the call's deadline) and one keep-alive pool with
 * the size bound; each call stamped with a request id. The v2 path, the readiness probe and the
 * v1 passthrough all go through the same dispatcher, so they share the breaker; native gRPC calls
 * take the same policy.
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
  const policy = new CallPolicy(opts);
  const dispatcher = new BackendCallDispatcher(pool, policy);
  let destroyed: Promise<void> | undefined;
  return {
    dispatcher,
    policy,
    // a pool the drain's deadline destroyed is closed already
    close: () => destroyed ?? pool.close(),
    destroy: (reason) => {
      destroyed ??= pool.destroy(reason);
      return destroyed;
    },
  };
}
