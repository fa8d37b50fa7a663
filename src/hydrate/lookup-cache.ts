import { LRUCache } from 'lru-cache';
import type { Json } from '../json/json-path.js';

/** A looked-up record, or `null` when the caller cannot see it (cached too: it is an answer). */
type Found = Json | null;

/**
 * Records looked up to complete other resources (a role binding's identity), per caller: cached for
 * a short TTL, and a uid already being fetched is awaited, not fetched again. Keys always start with
 * the caller's fingerprint, so an entry never serves another caller.
 */
export class LookupCache {
  private readonly lru: LRUCache<string, { found: Found }> | undefined;
  private readonly inFlight = new Map<string, Promise<Found>>();

  constructor(opts: { ttlMs: number; maxEntries: number }) {
    this.lru = opts.ttlMs > 0 ? new LRUCache({ max: opts.maxEntries, ttl: opts.ttlMs }) : undefined;
  }

  /**
   * The records of `uids` under `prefix` (caller and resource): from the cache, from fetches under
   * way, and the rest with one call of `fetch`.
   */
  async getMany(prefix: string, uids: readonly string[], fetch: (missing: string[]) => Promise<ReadonlyMap<string, Json>>): Promise<Map<string, Found>> {
    const result = new Map<string, Found>();
    const waits: Promise<void>[] = [];
    const missing: string[] = [];
    for (const uid of new Set(uids)) {
      const key = prefix + uid;
      const hit = this.lru?.get(key);
      if (hit) result.set(uid, hit.found);
      else {
        const pending = this.inFlight.get(key);
        if (pending) waits.push(pending.then((found) => void result.set(uid, found)));
        else missing.push(uid);
      }
    }
    if (missing.length > 0) {
      const batch = fetch(missing);
      for (const uid of missing) {
        const key = prefix + uid;
        const one = batch.then(
          (found) => {
            this.inFlight.delete(key);
            const value = found.get(uid) ?? null;
            this.lru?.set(key, { found: value });
            return value;
          },
          (err: unknown) => {
            this.inFlight.delete(key);
            throw err;
          },
        );
        this.inFlight.set(key, one);
        waits.push(one.then((found) => void result.set(uid, found)));
      }
    }
    await Promise.all(waits);
    return result;
  }
}
