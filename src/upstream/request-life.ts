/**
 * What a request's work watches to stop: the proxy's own RequestLife, or an AbortSignal (gRPC's call
 * signal, the drain's). Work checks `aborted` before each upstream call; waiters subscribe.
 */
export interface LifeSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * A request's life, as cheap as a flag: an AbortController per request (an event target, and the
 * listeners undici adds to it) cost about a tenth of a translated Get's CPU, mostly in garbage.
 */
export class RequestLife implements LifeSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] | undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener.call(this);
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners ??= [];
    this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at >= 0) this.listeners?.splice(at, 1);
  }
}
