import type { Dispatcher } from 'undici';

type Handler = Dispatcher.DispatchHandler;
type Controller = Dispatcher.DispatchController;

/**
 * Passes every event on to the next handler and tells `settle` once how the attempt ended: with
 * the status of the answer, or with the error when nothing usable came back (which `mapError` may
 * replace on its way on).
 */
export class OutcomeHandler implements Handler {
  private settled = false;

  constructor(
    private readonly next: Handler,
    private readonly settle: (outcome: { status: number } | { error: Error }) => void,
    private readonly mapError: (error: Error) => Error = (error) => error,
  ) {}

  private once(outcome: { status: number } | { error: Error }): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(outcome);
  }

  onRequestStart(controller: Controller, context: unknown): void {
    this.next.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    controller: Controller,
    statusCode: number,
    headers: Parameters<NonNullable<Handler['onRequestUpgrade']>>[2],
    socket: Parameters<NonNullable<Handler['onRequestUpgrade']>>[3],
  ): void {
    this.next.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(controller: Controller, statusCode: number, headers: Parameters<NonNullable<Handler['onResponseStart']>>[2], statusMessage?: string): void {
    this.once({ status: statusCode });
    this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    this.next.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: Parameters<NonNullable<Handler['onResponseEnd']>>[1]): void {
    this.next.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Controller, error: Error): void {
    const mapped = this.mapError(error);
    this.once({ error: mapped });
    this.next.onResponseError?.(controller, mapped);
  }
}
