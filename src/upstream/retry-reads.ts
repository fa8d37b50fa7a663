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
 * Retries idempotent reads on connection failures and 502/503/504 with jittered exponential
 * backoff, inside a retry budget and the request's deadline. Built on undici's retry interceptor;
 * only the decision is ours. After the last try, a 5xx answer is passed on as the backend gave it.
 */
export function retryReads(opts: RetryOptions): Dispatcher.DispatcherComposeInterceptor {
  const budget = new RetryBudget(opts.budgetRatio, opts.budgetBurst);
  const random = opts.random ?? Math.random;
  const retry = interceptors.retry({
    throwOnError: false,
    methods: READS as Dispatcher.HttpMethod[],
    statusCodes: STATUSES,
    errorCodes: CONNECTION_FAILURES,
    maxRetries: opts.maxRetries,
    retry(err, { state, opts: dispatchOpts }, cb) {
      const e = err as Error & { code?: string; statusCode?: number };
      const retryable =
        READS.includes(dispatchOpts.method) &&
        state.counter <= (dispatchOpts.retryOptions?.maxRetries ?? opts.maxRetries) &&
        (e.statusCode !== undefined ? STATUSES.includes(e.statusCode) : CONNECTION_FAILURES.includes(e.code ?? ''));
      if (!retryable) return cb(err);
      const delay = random() * Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (state.counter - 1));
      const deadline = (dispatchOpts as DeadlineOption).deadline;
      if (deadline !== undefined && Date.now() + delay >= deadline) return cb(err);
      if (!budget.spend()) return cb(err);
      setTimeout(() => cb(null), delay);
    },
  });
  return (dispatch) => {
    const inner = retry(dispatch);
    return (dispatchOpts, handler) => {
      budget.earn();
      return inner(dispatchOpts, handler);
    };
  };
}
