import { abortReason } from './abort-reason.js';
import { type LifeSignal, RequestLife } from './request-life.js';

/**
 * Upstream work several requests wait for (identical concurrent list loads, batched lookups). It
 * runs with a signal of its own that aborts only once every waiter has gone, and each waiter stops
 * waiting as soon as its own request's signal aborts: one client leaving never fails the others, and
 * the last one leaving stops the calls. A waiter without a signal never leaves.
 */
export class SharedCall<T> {
  readonly result: Promise<T>;
  private readonly life = new RequestLife();
  private waiting = 0;
  private staying = false;

  constructor(work: (signal: LifeSignal) => Promise<T>) {
    this.result = work(this.life);
    // a result nobody waits for any more (all left) is not an unhandled rejection
    this.result.catch(() => undefined);
  }

  /** Whether every waiter left and the work was stopped: a new request starts afresh rather than join it. */
  get abandoned(): boolean {
    return this.life.aborted;
  }

  /** One more request waits for the result, until its own signal aborts. */
  wait(signal: LifeSignal | undefined): Promise<T> {
    if (signal === undefined) {
      this.staying = true;
      return this.result;
    }
    this.waiting += 1;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        reject(abortReason(signal));
        this.waiting -= 1;
        if (this.waiting === 0 && !this.staying) this.life.abort(signal.reason);
      };
      if (signal.aborted) return leave();
      signal.addEventListener('abort', leave);
      this.result.then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value);
        },
        (err: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(err);
        },
      );
    });
  }
}
