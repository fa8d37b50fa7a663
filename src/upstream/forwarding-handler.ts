import type { Dispatcher } from 'undici';

type Handler = Dispatcher.DispatchHandler;
type Controller = Dispatcher.DispatchController;
type Args<K extends keyof Handler> = Parameters<NonNullable<Handler[K]>>;

/** A dispatch handler that passes every event on to `next`; interceptors override what they watch. */
export class ForwardingHandler implements Handler {
  constructor(protected readonly next: Handler) {}

  onRequestStart(controller: Controller, context: unknown): void {
    this.next.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(...args: Args<'onRequestUpgrade'>): void {
    this.next.onRequestUpgrade?.(...args);
  }

  onResponseStart(...args: Args<'onResponseStart'>): void {
    this.next.onResponseStart?.(...args);
  }

  onResponseData(...args: Args<'onResponseData'>): void {
    this.next.onResponseData?.(...args);
  }

  onResponseEnd(...args: Args<'onResponseEnd'>): void {
    this.next.onResponseEnd?.(...args);
  }

  onResponseError(...args: Args<'onResponseError'>): void {
    this.next.onResponseError?.(...args);
  }
}
