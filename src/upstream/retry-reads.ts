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

/** A dispatch option: the time (ms since epoch) after which no retry starts. */
export interface DeadlineOption {
  deadline?: number;
}

/** The request option that bounds one call to `timeoutMs`: each attempt's timer ends there, and no retry starts past it. */
export function callDeadline(timeoutMs: number): Required<DeadlineOption> {
  return { deadline: Date.now() + timeoutMs };
}

/**
 * How long a read waits before it goes again: jittered exponential backoff, inside a retry budget
 * (every call earns, every retry spends) and the call's deadline. Whether it goes again is the
 * call's policy (CallPolicy).
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

  /** The wait before the next attempt of a read that failed retryably after `done` retries, or undefined: no retry. */
  delayOfRead(done: number, deadline: number | undefined, max = this.opts.maxRetries): number | undefined {
    if (done + 1 > max) return undefined;
    const delay = this.random() * Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** done);
    if (deadline !== undefined && Date.now() + delay >= deadline) return undefined;
    return this.budget.spend() ? delay : undefined;
  }
}
