import { LRUCache } from 'lru-cache';
import type { Claim, IdempotencyRecord, IdempotencyStore, RecordSide } from './idempotency-store.js';

type Entry = { request: string; owner?: string; answer?: string; by?: string | undefined; side?: RecordSide | undefined };

/** Idempotency records in this process (one replica), bounded in count; each lapses after its own TTL. */
export class MemoryIdempotency implements IdempotencyStore {
  // one process: a claim outlives its owner only if the owner's request is lost, which it is not
  readonly leaseMs = 60_000;
  private readonly entries: LRUCache<string, Entry>;

  constructor(maxEntries = 100_000, now?: () => number) {
    this.entries = new LRUCache<string, Entry>({ max: maxEntries, ttlAutopurge: false, ...(now ? { perf: { now }, ttlResolution: 0 } : {}) });
  }

  async claim(key: string, request: string, owner: string, leaseMs: number): Promise<Claim> {
    const known = this.entries.get(key);
    if (!known) {
      this.entries.set(key, { request, owner }, { ttl: leaseMs });
      return { state: 'owner' };
    }
    if (known.request !== request) return { state: 'mismatch' };
    return known.answer === undefined ? { state: 'busy' } : { state: 'done', answer: known.answer, by: known.by, side: known.side };
  }

  async renew(key: string, owner: string, leaseMs: number): Promise<void> {
    const known = this.entries.get(key);
    if (known?.owner === owner && known.answer === undefined) this.entries.set(key, known, { ttl: leaseMs });
  }

  async complete(key: string, owner: string, record: IdempotencyRecord, ttlMs: number): Promise<boolean> {
    const known = this.entries.get(key);
    if (known && known.owner !== owner) return false;
    this.entries.set(key, { request: record.request, answer: record.answer, by: record.by, side: record.side }, { ttl: ttlMs });
    return true;
  }

  async release(key: string, owner: string): Promise<void> {
    if (this.entries.get(key)?.owner === owner) this.entries.delete(key);
  }

  async close(): Promise<void> {}
}
