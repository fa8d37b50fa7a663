import { LRUCache } from 'lru-cache';

/**
 * A list's collection, fetched, translated, filtered and sorted once, and rendered once: each item's
 * JSON text in list order. Pages are cut from the texts; nothing is translated or serialized again.
 */
export interface Snapshot {
  /** each item's v2 JSON text, without the synthesized times */
  texts: string[];
  /** each item's synthesized times (shared with the times store; their type is the operations'), when the resource has them */
  times: readonly unknown[] | undefined;
  /** memory held, estimated from the texts */
  bytes: number;
  /** when v1 last confirmed the caller sees it (ms, the operation clock): its load, or a re-check */
  checkedAt: number;
}

// V8 keeps a string in a header of about this size, and an array slot or a reference in 8 bytes
const STRING_OVERHEAD = 24;
const SLOT = 8;

/** The memory a snapshot of these texts holds (one byte a character: v1 JSON is mostly ASCII). */
export function snapshotBytes(texts: readonly string[], withTimes: boolean): number {
  let bytes = 0;
  for (const text of texts) bytes += text.length + STRING_OVERHEAD + SLOT;
  return withTimes ? bytes + texts.length * SLOT : bytes;
}

/**
 * Per-caller snapshots of fetched, translated, filtered and sorted collections: bounded by total
 * bytes, kept for a short TTL, and one v1 fetch shared by identical concurrent requests. Keys always
 * start with the caller's fingerprint, so an entry never serves another caller.
 */
export class SnapshotCache {
  private readonly lru: LRUCache<string, Snapshot> | undefined;
  private readonly inFlight = new Map<string, Promise<Snapshot>>();

  // ttlAutopurge: an expired snapshot is dropped when its TTL ends, not when something evicts it
  constructor(opts: { ttlMs: number; maxBytes: number; now?: () => number }) {
    this.lru =
      opts.ttlMs > 0
        ? new LRUCache<string, Snapshot>({
            maxSize: opts.maxBytes,
            sizeCalculation: (s) => Math.max(1, s.bytes),
            ttl: opts.ttlMs,
            ttlAutopurge: true,
            ...(opts.now ? { perf: { now: opts.now } } : {}),
          })
        : undefined;
  }

  async get(key: string, load: () => Promise<Snapshot>): Promise<Snapshot> {
    return (await this.lookup(key, load)).snapshot;
  }

  /** The snapshot, and whether it was loaded for this request (`fresh`) or kept from an earlier one. */
  async lookup(key: string, load: () => Promise<Snapshot>): Promise<{ snapshot: Snapshot; fresh: boolean }> {
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

  private load(key: string, load: () => Promise<Snapshot>): Promise<Snapshot> {
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
