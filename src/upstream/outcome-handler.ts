import type { Dispatcher } from 'undici';
import { ForwardingHandler } from './forwarding-handler.js';

type Handler = Dispatcher.DispatchHandler;
type Args<K extends keyof Handler> = Parameters<NonNullable<Handler[K]>>;

/**
 * Passes every event on to the next handler and tells `settle` once how the attempt ended: with
 * the status of the answer, or with the error when nothing usable came back.
 */
export class OutcomeHandler extends ForwardingHandler {
  private settled = false;

  constructor(
    next: Handler,
    private readonly settle: (outcome: { status: number } | { error: Error }) => void,
  ) {
    super(next);
  }

  private once(outcome: { status: number } | { error: Error }): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(outcome);
  }

  override onResponseStart(...args: Args<'onResponseStart'>): void {
    this.once({ status: args[1] });
    super.onResponseStart(...args);
  }

  override onResponseError(...args: Args<'onResponseError'>): void {
    this.once({ error: args[1] });
    super.onResponseError(...args);
  }
}
