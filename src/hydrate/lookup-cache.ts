import { LRUCache } from 'lru-cache';
import type { Json } from '../json/json-path.js';
import { abortReason } from '../upstream/abort-reason.js';
import { SharedCall } from '../upstream/shared-call.js';
import type { LifeSignal } from '../upstream/request-life.js';

/** A looked-up record, or `null` when the caller cannot see it (cached too: it is an answer). */
type Found = Json | null;

/**
 * Records looked up to complete other resources (a role binding's identity), per caller: cached for
 * a short TTL, and a uid already being fetched is awaited, not fetched again. Keys always start with
 * the caller's fingerprint, so an entry never serves another caller.
 */
export class LookupCache {
  private readonly lru: LRUCache<string, { found: Found }> | undefined;
  // each uid being fetched → the batch fetching it
  private readonly inFlight = new Map<string, { call: SharedCall<ReadonlyMap<string, Json>> }>();

  constructor(opts: { ttlMs: number; maxEntries: number }) {
    this.lru = opts.ttlMs > 0 ? new LRUCache({ max: opts.maxEntries, ttl: opts.ttlMs }) : undefined;
  }

  /**
   * The records of `uids` under `prefix` (caller and resource): from the cache, from fetches under
   * way, and the rest with one call of `fetch`. A fetch others wait for stops only once all of them
   * have gone (`signal`: this request's life).
   */
  async getMany(
    prefix: string,
    uids: readonly string[],
    fetch: (missing: string[], signal: LifeSignal) => Promise<ReadonlyMap<string, Json>>,
    signal?: LifeSignal,
  ): Promise<Map<string, Found>> {
    const result = new Map<string, Found>();
    const waits: Promise<void>[] = [];
    const missing: string[] = [];
    for (const uid of new Set(uids)) {
      const key = prefix + uid;
      const hit = this.lru?.get(key);
      if (hit) result.set(uid, hit.found);
      else {
        const pending = this.inFlight.get(key);
        if (pending && !pending.call.abandoned) waits.push(pending.call.wait(signal).then((found) => void result.set(uid, found.get(uid) ?? null)));
        else missing.push(uid);
      }
    }
    if (missing.length > 0) {
      // a fetch starts its call at once: none for a request that is gone already (its client reset
      // it while what is being completed was read)
      if (signal?.aborted) throw abortReason(signal);
      const call = new SharedCall((shared) => fetch(missing, shared));
      const entry = { call };
      for (const uid of missing) this.inFlight.set(prefix + uid, entry);
      const forget = () => {
        for (const uid of missing) if (this.inFlight.get(prefix + uid) === entry) this.inFlight.delete(prefix + uid);
      };
      call.result.then((found) => {
        forget();
        for (const uid of missing) this.lru?.set(prefix + uid, { found: found.get(uid) ?? null });
      }, forget);
      waits.push(
        call.wait(signal).then((found) => {
          for (const uid of missing) result.set(uid, found.get(uid) ?? null);
        }),
      );
    }
    await Promise.all(waits);
    return result;
  }
}
