import { LRUCache } from 'lru-cache';
import type { Json } from '../json/json-path.js';
import type { KeyFn } from './sorted-items.js';

export interface Snapshot<C = unknown> {
  /** the collection in list order: v2 items, or v1 records when `render` translates them per page */
  items: Json[];
  /** the sort key of an item of `items` */
  keyOf: KeyFn;
  /** the items of a page as the client sees them (before hydration) */
  render: (ctx: C, page: Json[]) => Json[] | Promise<Json[]>;
  /** the uid of an item of `items` (to re-authorize a page with one small v1 read) */
  uidOf: (item: Json) => unknown;
  /** approximate memory held, from the size of the v1 answer it came from */
  bytes: number;
  /** when v1 last confirmed the caller sees it (ms, the operation clock): its load, or a re-check */
  checkedAt: number;
}

/**
 * Per-caller snapshots of fetched, translated, filtered and sorted collections: bounded by total
 * bytes, kept for a short TTL, and one v1 fetch shared by identical concurrent requests. Keys always
 * start with the caller's fingerprint, so an entry never serves another caller.
 */
export class SnapshotCache<C = unknown> {
  private readonly lru: LRUCache<string, Snapshot<C>> | undefined;
  private readonly inFlight = new Map<string, Promise<Snapshot<C>>>();

  constructor(opts: { ttlMs: number; maxBytes: number }) {
    this.lru =
      opts.ttlMs > 0 ? new LRUCache<string, Snapshot<C>>({ maxSize: opts.maxBytes, sizeCalculation: (s) => Math.max(1, s.bytes), ttl: opts.ttlMs }) : undefined;
  }

  async get(key: string, load: () => Promise<Snapshot<C>>): Promise<Snapshot<C>> {
    return (await this.lookup(key, load)).snapshot;
  }

  /** The snapshot, and whether it was loaded for this request (`fresh`) or kept from an earlier one. */
  async lookup(key: string, load: () => Promise<Snapshot<C>>): Promise<{ snapshot: Snapshot<C>; fresh: boolean }> {
    const cached = this.lru?.get(key);
    if (cached) return { snapshot: cached, fresh: false };
    const pending = this.inFlight.get(key);
    if (pending) return { snapshot: await pending, fresh: true };
    return { snapshot: await this.load(key, load), fresh: true };
  }

  /** Drops one snapshot. */
  delete(key: string): void {
    this.lru?.delete(key);
  }

  private load(key: string, load: () => Promise<Snapshot<C>>): Promise<Snapshot<C>> {
    const loading = load().then(
      (snapshot) => {
        this.inFlight.delete(key);
        if (snapshot.bytes <= (this.lru?.maxSize ?? 0)) this.lru?.set(key, snapshot);
        return snapshot;
      },
      (err: unknown) => {
        this.inFlight.delete(key);
        throw err;
      },
    );
    this.inFlight.set(key, loading);
    return loading;
  }

  /** Drops every snapshot whose key starts with `prefix` (a caller's view of one resource after a write). */
  invalidate(prefix: string): void {
    if (!this.lru) return;
    for (const key of [...this.lru.keys()]) if (key.startsWith(prefix)) this.lru.delete(key);
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }
}
