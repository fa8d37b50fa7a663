/** An attempt that did not start answering within the attempt timeout: the backend hangs. */
export class AttemptTimeoutError extends Error {
  readonly code = 'V2PROXY_ATTEMPT_TIMEOUT';
  constructor(ms: number) {
    super(`no answer within the attempt timeout (${ms} ms)`);
  }
}

/** A call that ran past its deadline (`callDeadline`): the caller's time is up, whatever the backend does. */
export class DeadlineExceededError extends Error {
  readonly code = 'V2PROXY_DEADLINE';
  constructor(ms: number) {
    super(`no whole answer within the call's deadline (${ms} ms)`);
  }
}

/** The first limit of an attempt starting at `now`: the attempt timeout, or the call's deadline when that comes first (undefined: neither). */
export function attemptLimit(
  attemptMs: number,
  deadline: number,
  deadlineMs: number,
  now: number,
): { ms: number; kind: 'attempt-timeout' | 'deadline'; error: () => Error } | undefined {
  const left = deadline - now;
  if (attemptMs < left) return { ms: attemptMs, kind: 'attempt-timeout', error: () => new AttemptTimeoutError(attemptMs) };
  if (Number.isFinite(left)) return { ms: left, kind: 'deadline', error: () => new DeadlineExceededError(deadlineMs) };
  return undefined;
}
