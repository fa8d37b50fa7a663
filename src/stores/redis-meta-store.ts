import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { type MetaEntry, type MetaTimes, type Sighting, type TimesStore, metaEntry, nextEntry, writtenEntry } from '../meta/meta-store.js';
import { failureOf, redisConnected } from './open-redis.js';
import { onRedis, stateStoreError } from './state-store-error.js';

type Stored = { c: number; u: number; f: string | null };

function parse(text: string | null): MetaEntry | undefined {
  if (text === null) return undefined;
  try {
    const s = JSON.parse(text) as Stored;
    return typeof s.c === 'number' && typeof s.u === 'number' ? metaEntry(s.c, s.u, typeof s.f === 'string' ? s.f : null) : undefined;
  } catch {
    return undefined;
  }
}

const serialize = (e: MetaEntry) => JSON.stringify({ c: e.created, u: e.updated, f: e.fingerprint } satisfies Stored);

/**
 * `META_STORE=redis`: the synthesized times in one Redis hash, so every replica shows the same
 * createTime/updateTime. A read asks for all its records in one round trip; the first sighting is
 * set only if no replica set it first (HSETNX), so all replicas adopt one first-seen time.
 *
 * While Redis is away (a restart, a failover) a read is served the times this replica last had from
 * it, when it has them for every record and none of them would move: a read never needs Redis for
 * what it saw before. Another read waits up to `waitMs` (REDIS_TIMEOUT_MS) for the connection to
 * come back. Otherwise, and for every write, Redis failing is STATE_STORE_UNAVAILABLE.
 */
export class RedisMetaStore implements TimesStore {
  // the entries this replica last read or wrote on Redis, by key
  private readonly seenHere: LRUCache<string, MetaEntry>;

  private readonly hashKey: string;
  private readonly waitMs: number;

  constructor(
    private readonly redis: Redis,
    opts: { hashKey?: string; keepLocally?: number; waitMs?: number } = {},
  ) {
    this.hashKey = opts.hashKey ?? 'v2proxy:meta';
    this.seenHere = new LRUCache({ max: opts.keepLocally ?? 100_000 });
    this.waitMs = opts.waitMs ?? 0;
  }

  async observe(seen: readonly Sighting[], now: number): Promise<MetaTimes[]> {
    if (seen.length === 0) return [];
    try {
      return this.remembered(seen, await this.observeOnRedis(seen, now));
    } catch (err) {
      const kept = this.keptTimes(seen, now);
      if (kept) return kept;
      // reconnecting (a restart, a failover): the read waits for it up to waitMs, then fails
      const until = Date.now() + this.waitMs;
      let last = err;
      while (failureOf(last) === 'not connected' && Date.now() < until) {
        await redisConnected(this.redis, until - Date.now());
        // a connection that has just dropped may still say ready: look again a moment later
        if (this.redis.status === 'ready') await new Promise((resolve) => setTimeout(resolve, 10));
        try {
          return this.remembered(seen, await this.observeOnRedis(seen, now));
        } catch (again) {
          last = again;
        }
      }
      throw stateStoreError(last);
    }
  }

  private remembered(seen: readonly Sighting[], times: MetaEntry[]): MetaEntry[] {
    for (const [i, { key }] of seen.entries()) this.seenHere.set(key, times[i] as MetaEntry);
    return times;
  }

  /** The times of these records as last seen here, if every one is known and none would move. */
  private keptTimes(seen: readonly Sighting[], now: number): MetaEntry[] | undefined {
    const out: MetaEntry[] = [];
    for (const { key, fingerprint, since } of seen) {
      const known = this.seenHere.get(key);
      if (!known) return undefined;
      const next = nextEntry(known, fingerprint, since, now);
      if (next.created !== known.created || next.updated !== known.updated) return undefined;
      out.push(next);
    }
    return out;
  }

  private async observeOnRedis(seen: readonly Sighting[], now: number): Promise<MetaEntry[]> {
    const stored = await this.redis.hmget(this.hashKey, ...seen.map((s) => s.key));
    const times: MetaEntry[] = [];
    // the writes in the order queued: which record, and whether it was a first sighting (HSETNX)
    const queued: { i: number; first: boolean }[] = [];
    const multi = this.redis.multi();
    seen.forEach(({ key, fingerprint, since }, i) => {
      const known = parse(stored[i] ?? null);
      const entry = nextEntry(known, fingerprint, since, now);
      times.push(entry);
      if (entry === known) return;
      if (known) multi.hset(this.hashKey, key, serialize(entry));
      else multi.hsetnx(this.hashKey, key, serialize(entry));
      queued.push({ i, first: !known });
    });
    if (queued.length === 0) return times;
    const results = (await multi.exec()) ?? [];
    // a first sighting another replica recorded first: adopt its entry
    const lost = queued.filter((q, j) => q.first && results[j]?.[1] === 0).map((q) => q.i);
    if (lost.length > 0) {
      const again = await this.redis.hmget(this.hashKey, ...lost.map((i) => (seen[i] as { key: string }).key));
      lost.forEach((i, j) => {
        const entry = parse(again[j] ?? null);
        if (entry) times[i] = entry;
      });
    }
    return times;
  }

  async written(key: string, now: number, created: boolean): Promise<MetaTimes> {
    return onRedis(async () => {
      const known = created ? undefined : parse(await this.redis.hget(this.hashKey, key));
      const entry = writtenEntry(known, now, created);
      await this.redis.hset(this.hashKey, key, serialize(entry));
      this.seenHere.set(key, entry);
      return entry;
    });
  }

  async removed(key: string): Promise<void> {
    this.seenHere.delete(key);
    await onRedis(() => this.redis.hdel(this.hashKey, key));
  }

  async close(): Promise<void> {}
}
