import type { Dispatcher } from 'undici';

type Handler = Dispatcher.DispatchHandler;
type Controller = Dispatcher.DispatchController;

/** An attempt that did not start answering within the attempt timeout: the backend hangs. */
export class AttemptTimeoutError extends Error {
  readonly code = 'V2PROXY_ATTEMPT_TIMEOUT';
  constructor(ms: number) {
    super(`no answer within the attempt timeout (${ms} ms)`);
  }
}

/**
 * Aborts the attempt when its answer has not started within `ms`. A timer of its own: undici's
 * headersTimeout runs on a coarse clock (a 400 ms timeout fired after about 1 s).
 */
class AttemptTimer implements Handler {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly next: Handler,
    private readonly ms: number,
  ) {}

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  onRequestStart(controller: Controller, context: unknown): void {
    this.timer = setTimeout(() => controller.abort(new AttemptTimeoutError(this.ms)), this.ms);
    this.timer.unref();
    this.next.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(...args: Parameters<NonNullable<Handler['onRequestUpgrade']>>): void {
    this.stop();
    this.next.onRequestUpgrade?.(...args);
  }

  onResponseStart(...args: Parameters<NonNullable<Handler['onResponseStart']>>): void {
    this.stop();
    this.next.onResponseStart?.(...args);
  }

  onResponseData(...args: Parameters<NonNullable<Handler['onResponseData']>>): void {
    this.next.onResponseData?.(...args);
  }

  onResponseEnd(...args: Parameters<NonNullable<Handler['onResponseEnd']>>): void {
    this.next.onResponseEnd?.(...args);
  }

  onResponseError(...args: Parameters<NonNullable<Handler['onResponseError']>>): void {
    this.stop();
    this.next.onResponseError?.(...args);
  }
}

/**
 * Each attempt must start answering within `attemptMs`, so a hung backend is found out per attempt
 * (as UNAVAILABLE), not only when the call's deadline (`deadlineMs`, DEADLINE_EXCEEDED) runs out;
 * a body may not stall longer than the deadline between chunks. An attempt timeout no shorter than
 * the deadline is the deadline.
 */
export function attemptTimeout(attemptMs: number, deadlineMs: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const next = { ...opts, headersTimeout: opts.headersTimeout ?? deadlineMs, bodyTimeout: opts.bodyTimeout ?? deadlineMs };
    if (attemptMs >= deadlineMs || opts.headersTimeout != null) return dispatch(next, handler);
    return dispatch(next, new AttemptTimer(handler, attemptMs));
  };
}
