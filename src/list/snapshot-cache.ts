import { abortReason } from '../upstream/abort-reason.js';
import type { KeyValue } from './sorted-items.js';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import { SharedCall } from '../upstream/shared-call.js';
import type { LifeSignal } from '../upstream/request-life.js';

/**
 * A list's collection, fetched, translated, filtered and sorted once, and rendered once: the JSON
 * texts of its items in list order, kept end to end in one string with a comma between each. A page
 * is one cut of it; nothing is translated, serialized or joined again, and one string costs little
 * more than its characters.
 */
export interface Snapshot {
  /** every item's v2 JSON text as the client sees it, in list order, comma-separated */
  json: string;
  /** where each item's text ends in `json` (item i spans ends[i-1]+1..ends[i]) */
  ends: Uint32Array;
  /** memory held, estimated from the text */
  bytes: number;
  /** when v1 last confirmed the caller sees it (ms, the operation clock): its load, or a re-check */
  checkedAt: number;
  /** what it was made from (resource, query, order and the digest of v1's answer), when another caller may share it */
  source?: string | undefined;
  /** each item's sort key, kept from the sort: a page seeks and seals its token without parsing item texts */
  keys?: readonly (readonly KeyValue[])[] | undefined;
}

// V8 keeps a string of Latin-1 characters in one byte each, any other in two; a reference in 8 bytes
const REFERENCE = 8;
const WIDE = /[\u0100-\uffff]/;

/**
 * A snapshot of `count` item texts in list order (`textAt(k)`: the k-th). The string is built as it
 * goes, not from an array joined at the end: one pass, and no array of texts held meanwhile.
 */
export function snapshotOf(
  count: number,
  textAt: (k: number) => string,
  checkedAt: number,
  source?: string,
  keys?: readonly (readonly KeyValue[])[],
): Snapshot {
  const ends = new Uint32Array(count);
  let json = '';
  for (let k = 0; k < count; k += 1) {
    json += k === 0 ? textAt(k) : `,${textAt(k)}`;
    ends[k] = json.length;
  }
  let bytes = json.length * (WIDE.test(json) ? 2 : 1) + ends.byteLength;
  // an array per key (about 32 bytes) and its values (a string's characters, or a reference)
  if (keys) for (const key of keys) for (const v of key) bytes += 32 + (typeof v === 'string' ? v.length : REFERENCE);
  return { json, ends, bytes, checkedAt, source, keys };
}

/** How many items a snapshot holds. */
export function itemCount(snapshot: Snapshot): number {
  return snapshot.ends.length;
}

/** The JSON texts of items `start` to `end` (exclusive), comma-separated: one cut of the kept string. */
export function itemsText(snapshot: Snapshot, start: number, end: number): string {
  if (end <= start) return '';
  return snapshot.json.slice(start === 0 ? 0 : (snapshot.ends[start - 1] as number) + 1, snapshot.ends[end - 1] as number);
}

/** The JSON text of item `i`. */
export function itemText(snapshot: Snapshot, i: number): string {
  return itemsText(snapshot, i, i + 1);
}

/**
 * Per-caller snapshots of fetched, translated, filtered and sorted collections: bounded by total
 * bytes, kept for a short TTL, and one v1 fetch shared by identical concurrent requests. Keys always
 * start with the caller's fingerprint, so an entry never serves another caller. What another caller
 * may reuse is only the content of a kept snapshot made from the same source (`sameSource`), found by
 * a digest of the v1 answer that caller itself was given.
 */
export class SnapshotCache {
  private readonly lru: LRUCache<string, Snapshot> | undefined;
  private readonly inFlight = new Map<string, SharedCall<Snapshot>>();
  // source → a kept snapshot made from it; only snapshots the LRU holds, so the byte bound covers them
  private readonly bySource = new Map<string, Snapshot>();

  // ttlAutopurge: an expired snapshot is dropped when its TTL ends, not when something evicts it
  constructor(opts: { ttlMs: number; maxBytes: number; now?: () => number }) {
    this.lru =
      opts.ttlMs > 0
        ? new LRUCache<string, Snapshot>({
            maxSize: opts.maxBytes,
            sizeCalculation: (s) => Math.max(1, s.bytes),
            ttl: opts.ttlMs,
            ttlAutopurge: true,
            dispose: (snapshot) => {
              if (snapshot.source !== undefined && this.bySource.get(snapshot.source) === snapshot) this.bySource.delete(snapshot.source);
            },
            ...(opts.now ? { perf: { now: opts.now } } : {}),
          })
        : undefined;
  }

  async get(key: string, load: (signal: LifeSignal) => Promise<Snapshot>, signal?: LifeSignal): Promise<Snapshot> {
    return (await this.lookup(key, load, signal)).snapshot;
  }

  /**
   * The snapshot, and whether it was loaded for this request (`fresh`) or kept from an earlier one.
   * Identical concurrent requests share one load; it stops once all of them have gone (`signal`).
   */
  lookup(key: string, load: (signal: LifeSignal) => Promise<Snapshot>, signal?: LifeSignal): Promise<{ snapshot: Snapshot; fresh: boolean }> {
    return this.find(key, load, signal, true);
  }

  /** `lookup`, where `secondChance` says whether a joined load that ends unavailable may be followed by one more. */
  private async find(
    key: string,
    load: (signal: LifeSignal) => Promise<Snapshot>,
    signal: LifeSignal | undefined,
    secondChance: boolean,
  ): Promise<{ snapshot: Snapshot; fresh: boolean }> {
    const cached = this.lru?.get(key);
    if (cached) return { snapshot: cached, fresh: false };
    const pending = this.inFlight.get(key);
    if (!pending || pending.abandoned) {
      // a load starts its calls at once: none for a request that is gone already
      if (signal?.aborted) throw abortReason(signal);
      return { snapshot: await this.load(key, load).wait(signal), fresh: true };
    }
    try {
      return { snapshot: await pending.wait(signal), fresh: true };
    } catch (err) {
      // A load joined under way may have spent its retries before this request came: if it found v1
      // unavailable, those who joined it get one load of their own (shared again), so one flaky
      // stretch does not fail every request that happened to wait on it.
      if (!secondChance || signal?.aborted || !(err instanceof ApiError) || err.code !== GrpcCode.UNAVAILABLE) throw err;
      return this.find(key, load, signal, false);
    }
  }

  /** The kept snapshot made from `source`, whose content a caller given the same v1 answer may take. */
  sameSource(source: string): Snapshot | undefined {
    return this.bySource.get(source);
  }

  /** Drops one snapshot. */
  delete(key: string): void {
    this.lru?.delete(key);
  }

  private load(key: string, load: (signal: LifeSignal) => Promise<Snapshot>): SharedCall<Snapshot> {
    const loading: SharedCall<Snapshot> = new SharedCall((signal) =>
      load(signal).then(
        (snapshot) => {
          if (this.inFlight.get(key) === loading) this.inFlight.delete(key);
          if (this.lru && snapshot.bytes <= this.lru.maxSize) {
            this.lru.set(key, snapshot);
            if (snapshot.source !== undefined && !this.bySource.has(snapshot.source)) this.bySource.set(snapshot.source, snapshot);
          }
          return snapshot;
        },
        (err: unknown) => {
          if (this.inFlight.get(key) === loading) this.inFlight.delete(key);
          throw err;
        },
      ),
    );
    this.inFlight.set(key, loading);
    return loading;
  }

  /**
   * Drops every snapshot whose key starts with `prefix` (a caller's view of one resource after a
   * write), and stops sharing any content of `resource`: the write moved times the content holds.
   */
  invalidate(prefix: string, resource: string): void {
    if (!this.lru) return;
    for (const key of [...this.lru.keys()]) if (key.startsWith(prefix)) this.lru.delete(key);
    this.stopSharing(resource);
  }

  /** Drops every caller's snapshots of `resource` (a write through another replica), and stops sharing its contents. */
  invalidateResource(resource: string): void {
    if (this.lru) for (const key of [...this.lru.keys()]) if (key.split('|', 2)[1] === resource) this.lru.delete(key);
    this.stopSharing(resource);
  }

  /** No kept content of `resource` is offered any more (times it holds have moved); the snapshots themselves stay. */
  stopSharing(resource: string): void {
    for (const source of [...this.bySource.keys()]) if (source.startsWith(`${resource}|`)) this.bySource.delete(source);
  }

  /** Drops every snapshot and its expiry timer (a closed app keeps nothing alive until a TTL ends). */
  clear(): void {
    this.lru?.clear();
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }
}
