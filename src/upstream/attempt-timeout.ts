import type { Dispatcher } from 'undici';
import { ForwardingHandler } from './forwarding-handler.js';

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

/**
 * Aborts the attempt when its answer has not started within `ms`. A timer of its own: undici's
 * headersTimeout runs on a coarse clock (a 400 ms timeout fired after about 1 s).
 */
class AttemptTimer extends ForwardingHandler {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    next: Handler,
    private readonly ms: number,
  ) {
    super(next);
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  override onRequestStart(controller: Controller, context: unknown): void {
    this.timer = setTimeout(() => controller.abort(new AttemptTimeoutError(this.ms)), this.ms);
    this.timer.unref();
    super.onRequestStart(controller, context);
  }

  override onRequestUpgrade(...args: Args<'onRequestUpgrade'>): void {
    this.stop();
    super.onRequestUpgrade(...args);
  }

  override onResponseStart(...args: Args<'onResponseStart'>): void {
    this.stop();
    super.onResponseStart(...args);
  }

  override onResponseError(...args: Args<'onResponseError'>): void {
    this.stop();
    super.onResponseError(...args);
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
