import { LRUCache } from 'lru-cache';
import type { Claim, IdempotencyStore } from './idempotency-store.js';

type Entry = { request: string; owner?: string; answer?: string; by?: string };

/** Idempotency records in this process (one replica), bounded in count; each lapses after its own TTL. */
export class MemoryIdempotency implements IdempotencyStore {
  private readonly entries: LRUCache<string, Entry>;

  constructor(maxEntries = 100_000, now?: () => number) {
    this.entries = new LRUCache<string, Entry>({ max: maxEntries, ttlAutopurge: false, ...(now ? { perf: { now }, ttlResolution: 0 } : {}) });
  }

  async claim(key: string, request: string, owner: string, pendingMs: number): Promise<Claim> {
    const known = this.entries.get(key);
    if (!known) {
      this.entries.set(key, { request, owner }, { ttl: pendingMs });
      return { state: 'owner' };
    }
    if (known.request !== request) return { state: 'mismatch' };
    return known.answer === undefined ? { state: 'busy' } : { state: 'done', answer: known.answer, by: known.by };
  }

  async complete(key: string, owner: string, record: { request: string; answer: string; by: string }, ttlMs: number): Promise<boolean> {
    if (this.entries.get(key)?.owner !== owner) return false;
    this.entries.set(key, { request: record.request, answer: record.answer, by: record.by }, { ttl: ttlMs });
    return true;
  }

  async release(key: string, owner: string): Promise<void> {
    if (this.entries.get(key)?.owner === owner) this.entries.delete(key);
  }

  async close(): Promise<void> {}
}
