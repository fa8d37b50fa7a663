import { type Dispatcher, interceptors } from 'undici';
import { RetryBudget } from './retry-budget.js';

export interface RetryOptions {
  /** attempts after the first, at most */
  maxRetries: number;
  /** the first backoff's ceiling, doubled each retry up to `maxDelayMs` (full jitter below it) */
  baseDelayMs: number;
  maxDelayMs: number;
  /** retries earned per first attempt, and how many may be saved */
  budgetRatio: number;
  budgetBurst: number;
  random?: () => number;
}

// reads only: a write that failed may still have landed, so it is never retried blindly
const READS = ['GET', 'HEAD'];
const STATUSES = [502, 503, 504];
const CONNECTION_FAILURES = ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'];

/** A dispatch option: the time (ms since epoch) after which no retry starts. */
export interface DeadlineOption {
  deadline?: number;
}

/** The request option that bounds one call to `timeoutMs`: each attempt's timer ends there, and no retry starts past it. */
export function callDeadline(timeoutMs: number): Required<DeadlineOption> {
  return { deadline: Date.now() + timeoutMs };
}

/**
 * When a read goes again: on connection failures and 502/503/504, with jittered exponential
 * backoff, inside a retry budget (every call earns, every retry spends) and the request's deadline.
 * Writes never (a write that failed may still have landed).
 */
export class ReadRetries {
  private readonly budget: RetryBudget;
  private readonly random: () => number;

  constructor(private readonly opts: RetryOptions) {
    this.budget = new RetryBudget(opts.budgetRatio, opts.budgetBurst);
    this.random = opts.random ?? Math.random;
  }

  earn(): void {
    this.budget.earn();
  }

  /** The wait before the next attempt of a call that failed so after `done` retries, or undefined: no retry. */
  delayFor(dispatchOpts: Dispatcher.DispatchOptions, failure: { status: number } | { error: Error }, done: number): number | undefined {
    if (!READS.includes(dispatchOpts.method)) return undefined;
    const retryable = 'status' in failure ? STATUSES.includes(failure.status) : CONNECTION_FAILURES.includes((failure.error as { code?: string }).code ?? '');
    if (!retryable) return undefined;
    const max = (dispatchOpts as { retryOptions?: { maxRetries?: number } }).retryOptions?.maxRetries ?? this.opts.maxRetries;
    return this.delayOfRead(done, (dispatchOpts as DeadlineOption).deadline, max);
  }

  /**
   * The wait before the next attempt of a read that failed retryably (whatever its protocol: the
   * native gRPC calls ask here too, so both share the budget), or undefined: no retry.
   */
  delayOfRead(done: number, deadline: number | undefined, max = this.opts.maxRetries): number | undefined {
    if (done + 1 > max) return undefined;
    const delay = this.random() * Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** done);
    if (deadline !== undefined && Date.now() + delay >= deadline) return undefined;
    return this.budget.spend() ? delay : undefined;
  }
}

/**
 * The same policy as an undici interceptor (undici's retry interceptor, only the decision ours),
 * for callers that speak undici's newer handler interface. After the last try, a 5xx answer is
 * passed on as the backend gave it.
 */
export function retryReads(policy: ReadRetries, maxRetries: number): Dispatcher.DispatcherComposeInterceptor {
  const retry = interceptors.retry({
    throwOnError: false,
    methods: READS as Dispatcher.HttpMethod[],
    statusCodes: STATUSES,
    errorCodes: CONNECTION_FAILURES,
    maxRetries,
    retry(err, { state, opts: dispatchOpts }, cb) {
      const e = err as Error & { statusCode?: number };
      const failure = e.statusCode !== undefined ? { status: e.statusCode } : { error: e };
      const delay = policy.delayFor(dispatchOpts as Dispatcher.DispatchOptions, failure, state.counter - 1);
      if (delay === undefined) return cb(err);
      setTimeout(() => cb(null), delay);
    },
  });
  return (dispatch) => {
    const inner = retry(dispatch);
    return (dispatchOpts, handler) => {
      policy.earn();
      return inner(dispatchOpts, handler);
    };
  };
}
