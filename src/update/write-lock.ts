import type { LifeSignal } from '../upstream/request-life.js';

/**
 * Serializes the read-modify-write of one resource. `work` gets `fence`: called right before the
 * write, it throws when the lock was lost meanwhile (its lease ran out), so a holder that stalled
 * never overwrites the work of the one after it. A waiter stops waiting when `signal` aborts.
 */
export interface WriteLock {
  run<T>(key: string, work: (fence: () => Promise<void>) => Promise<T>, signal?: LifeSignal): Promise<T>;
}
