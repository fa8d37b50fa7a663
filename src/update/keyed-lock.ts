import type { WriteLock } from './write-lock.js';

const held = async () => undefined;

/**
 * Serializes work per key inside one process: a read-modify-write of a uid waits for the one before
 * it, so concurrent partial updates of one resource all land. Keys are dropped once idle. (One
 * replica only; with REDIS_URL the lock lives on Redis.)
 */
export class KeyedLock implements WriteLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: (fence: () => Promise<void>) => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const go = () => work(held);
    const result = previous.then(go, go);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
