import { LRUCache } from 'lru-cache';

/**
 * A list's collection, fetched, translated, filtered and sorted once, and rendered once: the JSON
 * texts of its items in list order, kept end to end in one string. Pages are cut from it; nothing is
 * translated or serialized again, and one string costs little more than its characters.
 */
export interface Snapshot {
  /** every item's v2 JSON text (without the synthesized times), one after another */
  json: string;
  /** where each item's text ends in `json` (item i spans ends[i-1]..ends[i]) */
  ends: Uint32Array;
  /** each item's synthesized times (shared with the times store; their type is the operations'), when the resource has them */
  times: readonly unknown[] | undefined;
  /** memory held, estimated from the text */
  bytes: number;
  /** when v1 last confirmed the caller sees it (ms, the operation clock): its load, or a re-check */
  checkedAt: number;
}

// V8 keeps a string of Latin-1 characters in one byte each, any other in two; a reference in 8 bytes
const REFERENCE = 8;
const WIDE = /[\u0100-\uffff]/;

/** A snapshot of item texts in list order (with their times, when the resource has them). */
export function snapshotOf(texts: readonly string[], times: readonly unknown[] | undefined, checkedAt: number): Snapshot {
  const ends = new Uint32Array(texts.length);
  let at = 0;
  texts.forEach((text, i) => {
    at += text.length;
    ends[i] = at;
  });
  const json = texts.join('');
  const bytes = json.length * (WIDE.test(json) ? 2 : 1) + ends.byteLength + (times ? times.length * REFERENCE : 0);
  return { json, ends, times, bytes, checkedAt };
}

/** How many items a snapshot holds. */
export function itemCount(snapshot: Snapshot): number {
  return snapshot.ends.length;
}

/** The JSON text of item `i`. */
export function itemText(snapshot: Snapshot, i: number): string {
  return snapshot.json.slice(i === 0 ? 0 : (snapshot.ends[i - 1] as number), snapshot.ends[i] as number);
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

  /** Drops every snapshot and its expiry timer (a closed app keeps nothing alive until a TTL ends). */
  clear(): void {
    this.lru?.clear();
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }
}
