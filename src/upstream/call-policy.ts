import { attemptLimit } from './attempt-timeout.js';
import { type BreakerOptions, type BreakerState, CircuitBreaker, CircuitOpenError } from './circuit-breaker.js';
import { ReadRetries, type RetryOptions } from './retry-reads.js';

/**
 * How one attempt of a call ended, whatever its protocol: answered (`down`: the backend said it
 * cannot serve: 502, 503, 504, or gRPC UNAVAILABLE), or no answer, and why.
 */
export type AttemptEnd =
  | { answered: true; down: boolean }
  | {
      failed:
        | 'unreachable' // the connection failed before an answer began (refused, reset, closed)
        | 'attempt-timeout' // no answer began within the attempt timeout: the backend hangs
        | 'broken' // the answer broke off, or the transport failed otherwise
        | 'deadline' // the call's own time ran out
        | 'too-large' // the answer was larger than the bound
        | 'stopped'; // its caller stopped it (the request gone, its deadline, the drain)
    };

/** An answer, the backend up; and one saying it cannot serve (one object each: made on every attempt's path). */
export const ANSWER_UP: AttemptEnd = { answered: true, down: false };
export const ANSWER_DOWN: AttemptEnd = { answered: true, down: true };

/** What an attempt's end says of the backend: down, up, or nothing (undefined). */
function downOf(end: AttemptEnd): boolean | undefined {
  if ('answered' in end) return end.down;
  return end.failed === 'deadline' || end.failed === 'too-large' || end.failed === 'stopped' ? undefined : true;
}

/** Whether a read that ended so may go again: the backend said it is down, or the connection failed before any answer. */
function retryable(end: AttemptEnd): boolean {
  return 'answered' in end ? end.down : end.failed === 'unreachable';
}

export interface CallPolicyOptions {
  attemptTimeoutMs: number;
  /** a call's whole time, retries included (the attempt timeout is capped by it) */
  deadlineMs: number;
  retry: RetryOptions;
  breaker: BreakerOptions;
  onBreaker?: ((state: BreakerState) => void) | undefined;
}

/**
 * A backend's policy, written once for every protocol that calls it (REST through undici, gRPC
 * through connect): a call earns its share of the retry budget; each attempt asks the circuit
 * breaker, must start answering within the attempt timeout and be whole by the call's deadline;
 * how it ended is told to the breaker (what says nothing of the backend is not), and a read the
 * backend said it could not serve, or lost to the connection before any answer, goes again with
 * jittered backoff within the budget and the deadline. A write never goes again: it may have landed.
 */
export class CallPolicy {
  readonly breaker: CircuitBreaker;
  readonly retries: ReadRetries;
  readonly attemptMs: number;
  readonly deadlineMs: number;

  constructor(opts: CallPolicyOptions) {
    this.breaker = new CircuitBreaker(opts.breaker, opts.onBreaker);
    this.retries = new ReadRetries(opts.retry);
    this.attemptMs = opts.attemptTimeoutMs;
    this.deadlineMs = opts.deadlineMs;
  }

  /** A call begins: it earns its share of the retry budget. */
  begin(): void {
    this.retries.earn();
  }

  /** Whether an attempt may go: 'go', or 'trial' (the circuit is open and a trial is due); an open circuit throws CircuitOpenError. */
  admit(): 'go' | 'trial' {
    const admitted = this.breaker.admit();
    if (admitted === 'refuse') throw new CircuitOpenError();
    return admitted;
  }

  /** The first limit of an attempt starting now: the attempt timeout, or the call's deadline when that comes first (undefined: neither). */
  limit(deadline: number): ReturnType<typeof attemptLimit> {
    return attemptLimit(this.attemptMs, deadline, this.deadlineMs, Date.now());
  }

  /** An attempt ended: the breaker is told what its end says of the backend. */
  settle(end: AttemptEnd, admitted: 'go' | 'trial'): void {
    this.breaker.record(downOf(end), admitted === 'trial');
  }

  /** The wait before a read that ended so goes again, after `done` retries, or undefined: it does not. */
  retryAfter(end: AttemptEnd, done: number, deadline: number | undefined, max?: number): number | undefined {
    return retryable(end) ? this.retries.delayOfRead(done, deadline, max) : undefined;
  }
}
