import type { Dispatcher } from 'undici';
import { ForwardingHandler } from './forwarding-handler.js';
import type { DeadlineOption } from './retry-reads.js';

type Handler = Dispatcher.DispatchHandler;
type Controller = Dispatcher.DispatchController;
type Args<K extends keyof Handler> = Parameters<NonNullable<Handler[K]>>;

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
export function attemptLimit(attemptMs: number, deadline: number, deadlineMs: number, now: number): { ms: number; error: () => Error } | undefined {
  const left = deadline - now;
  if (attemptMs < left) return { ms: attemptMs, error: () => new AttemptTimeoutError(attemptMs) };
  if (Number.isFinite(left)) return { ms: left, error: () => new DeadlineExceededError(deadlineMs) };
  return undefined;
}

/**
 * One timer per attempt, two limits: the answer must start within the attempt timeout (else the
 * backend hangs: AttemptTimeoutError), and the whole answer must be in by the call's deadline (else
 * DeadlineExceededError). A plain timer of its own: an AbortSignal per call cost more (an event
 * target and its listeners), and undici's headersTimeout runs on a coarse clock (a 400 ms timeout
 * fired after about 1 s).
 */
class AttemptTimer extends ForwardingHandler {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    next: Handler,
    private readonly attemptMs: number,
    private readonly deadline: number,
    private readonly deadlineMs: number,
  ) {
    super(next);
  }

  private arm(ms: number, abort: () => void): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(abort, Math.max(0, ms));
    this.timer.unref();
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  override onRequestStart(controller: Controller, context: unknown): void {
    const limit = attemptLimit(this.attemptMs, this.deadline, this.deadlineMs, Date.now());
    if (limit) this.arm(limit.ms, () => controller.abort(limit.error()));
    super.onRequestStart(controller, context);
  }

  override onRequestUpgrade(...args: Args<'onRequestUpgrade'>): void {
    this.stop();
    super.onRequestUpgrade(...args);
  }

  override onResponseStart(...args: Args<'onResponseStart'>): void {
    const [controller] = args;
    // answering: from here only the deadline bounds the body
    if (Number.isFinite(this.deadline)) this.arm(this.deadline - Date.now(), () => controller.abort(new DeadlineExceededError(this.deadlineMs)));
    else this.stop();
    super.onResponseStart(...args);
  }

  override onResponseEnd(...args: Args<'onResponseEnd'>): void {
    this.stop();
    super.onResponseEnd(...args);
  }

  override onResponseError(...args: Args<'onResponseError'>): void {
    this.stop();
    super.onResponseError(...args);
  }
}

/**
 * Each attempt must start answering within `attemptMs`, so a hung backend is found out per attempt
 * (as UNAVAILABLE), and a call with a deadline (the dispatch option of `callDeadline`) must be
 * answered whole by then (DEADLINE_EXCEEDED).
 */
export function attemptTimeout(attemptMs: number, deadlineMs: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const deadline = (opts as DeadlineOption).deadline;
    if (deadline !== undefined) return dispatch(opts, new AttemptTimer(handler, attemptMs, deadline, deadlineMs));
    // no call deadline (the passthrough streams what v1 sends): undici's own timeouts, the answer's start per attempt
    const next = { ...opts, headersTimeout: opts.headersTimeout ?? deadlineMs, bodyTimeout: opts.bodyTimeout ?? deadlineMs };
    if (attemptMs >= deadlineMs || opts.headersTimeout != null) return dispatch(next, handler);
    return dispatch(next, new AttemptTimer(handler, attemptMs, Number.POSITIVE_INFINITY, deadlineMs));
  };
}
