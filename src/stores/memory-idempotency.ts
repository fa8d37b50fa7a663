import { LRUCache } from 'lru-cache';
import type { Claim, IdempotencyStore } from './idempotency-store.js';

type Entry = { request: string; answer?: string };

/** Idempotency records in this process (one replica), bounded in count; each lapses after its own TTL. */
export class MemoryIdempotency implements IdempotencyStore {
  private readonly entries: LRUCache<string, Entry>;

  constructor(maxEntries = 100_000, now?: () => number) {
    this.entries = new LRUCache<string, Entry>({ max: maxEntries, ttlAutopurge: false, ...(now ? { perf: { now }, ttlResolution: 0 } : {}) });
  }

  async claim(key: string, request: string, pendingMs: number): Promise<Claim> {
    const known = this.entries.get(key);
    if (!known) {
      this.entries.set(key, { request }, { ttl: pendingMs });
      return { state: 'owner' };
    }
    if (known.request !== request) return { state: 'mismatch' };
    return known.answer === undefined ? { state: 'busy' } : { state: 'done', answer: known.answer };
  }

  async complete(key: string, request: string, answer: string, ttlMs: number): Promise<void> {
    this.entries.set(key, { request, answer }, { ttl: ttlMs });
  }

  async release(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async close(): Promise<void> {}
}
