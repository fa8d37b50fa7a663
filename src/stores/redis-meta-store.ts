import type { Redis } from 'ioredis';
import { type MetaEntry, type MetaTimes, type Sighting, type TimesStore, metaEntry, nextEntry, writtenEntry } from '../meta/meta-store.js';
import { onRedis } from './state-store-error.js';

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
 * set only if no replica set it first (HSETNX), so all replicas adopt one first-seen time. Redis
 * failing is STATE_STORE_UNAVAILABLE.
 */
export class RedisMetaStore implements TimesStore {
  constructor(
    private readonly redis: Redis,
    private readonly hashKey = 'v2proxy:meta',
  ) {}

  async observe(seen: readonly Sighting[], now: number): Promise<MetaTimes[]> {
    if (seen.length === 0) return [];
    return onRedis(() => this.observeOnRedis(seen, now));
  }

  private async observeOnRedis(seen: readonly Sighting[], now: number): Promise<MetaTimes[]> {
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
      return entry;
    });
  }

  async removed(key: string): Promise<void> {
    await onRedis(() => this.redis.hdel(this.hashKey, key));
  }

  async close(): Promise<void> {}
}
