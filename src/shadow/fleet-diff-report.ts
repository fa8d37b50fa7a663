import type { Redis } from 'ioredis';
import {
  BUCKET_MS,
  type BucketDelta,
  DEFAULT_THRESHOLDS,
  MAX_FIELDS,
  MAX_SAMPLES,
  OVERFLOW,
  REPORT_WINDOWS,
  type ReportWindow,
  type RouteDelta,
  type Sample,
  WINDOW_KEEP_MS,
  windowed,
} from './diff-book.js';
import { onRedis } from '../stores/state-store-error.js';

// one route's share of a replica, added atomically: counts, fields (at most MAX_FIELDS paths, the
// rest folded into one), and samples (at most MAX_SAMPLES per path, the first ones kept)
const ADD = `
local p = ARGV[1]
local d = cjson.decode(ARGV[2])
local maxFields = tonumber(ARGV[5])
local maxSamples = tonumber(ARGV[6])
redis.call('SADD', ARGV[3], ARGV[4])
redis.call('SET', ARGV[8], ARGV[9], 'NX')
local c = p .. ':counts'
for _, k in ipairs({'compared', 'matched', 'differed', 'noiseReads', 'errors', 'skipped'}) do
  if d[k] > 0 then redis.call('HINCRBY', c, k, d[k]) end
end
redis.call('HSET', c, 'thresholds', cjson.encode(d.thresholds), 'resource', d.resource, 'operation', d.operation)
for _, f in ipairs(d.fields) do
  local path = f.path
  if redis.call('SISMEMBER', p .. ':paths', path) == 0 and redis.call('SCARD', p .. ':paths') >= maxFields then path = ARGV[7] end
  redis.call('SADD', p .. ':paths', path)
  local h = p .. ':f:' .. path
  if f.differences > 0 then redis.call('HINCRBY', h, 'differences', f.differences) end
  if f.noise > 0 then redis.call('HINCRBY', h, 'noise', f.noise) end
  for kind, n in pairs(f.kinds) do redis.call('HINCRBY', h, 'k:' .. kind, n) end
  local s = p .. ':s:' .. path
  for _, sample in ipairs(f.samples) do
    if redis.call('LLEN', s) < maxSamples then redis.call('RPUSH', s, cjson.encode(sample)) end
  end
end
-- what was booked in each bucket of time, kept as long as the longest window (its paths those kept above)
local keep = tonumber(ARGV[10])
for _, b in ipairs(d.buckets or {}) do
  local w = p .. ':w:' .. tostring(b.bucket)
  for _, k in ipairs({'compared', 'matched', 'differed', 'noiseReads', 'errors', 'skipped'}) do
    local n = tonumber(b.counts[k]) or 0
    if n > 0 then redis.call('HINCRBY', w, k, n) end
  end
  redis.call('HSET', w, 'at', b.bucket)
  redis.call('EXPIRE', w, keep)
  for _, f in ipairs(b.fields) do
    local path = f.path
    if redis.call('SISMEMBER', p .. ':paths', path) == 0 then path = ARGV[7] end
    redis.call('SADD', w .. ':paths', path)
    local h = w .. ':f:' .. path
    if f.differences > 0 then redis.call('HINCRBY', h, 'differences', f.differences) end
    if f.noise > 0 then redis.call('HINCRBY', h, 'noise', f.noise) end
    for kind, n in pairs(f.kinds) do redis.call('HINCRBY', h, 'k:' .. kind, n) end
    redis.call('EXPIRE', h, keep)
  end
  redis.call('EXPIRE', w .. ':paths', keep)
end
return 1`;

/**
 * The fleet's diff report on Redis: every replica adds what it booked since its last flush, and any
 * replica reads the whole. Bounded as one replica's book is (routes are resource × operation, paths
 * per route capped, ten samples per path); kept across restarts of the replicas.
 */
export class FleetDiffReport {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'v2proxy:diff',
  ) {}

  private routeKey(resource: string, operation: string): string {
    return `${this.prefix}:${resource}:${operation}`;
  }

  async add(deltas: readonly RouteDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const d of deltas) {
      const id = JSON.stringify([d.resource, d.operation]);
      pipeline.eval(
        ADD,
        0,
        this.routeKey(d.resource, d.operation),
        JSON.stringify(d),
        `${this.prefix}:routes`,
        id,
        MAX_FIELDS,
        MAX_SAMPLES,
        OVERFLOW,
        `${this.prefix}:since`,
        Date.now(),
        Math.ceil(WINDOW_KEEP_MS / 1000),
      );
    }
    const results = await onRedis(() => pipeline.exec());
    const failed = results?.find(([err]) => err);
    if (!results || failed) throw failed?.[0] ?? new Error('the diff report was not answered');
  }

  /** What a route booked in each bucket from `first` to `last`. */
  private async buckets(key: string, first: number, last: number): Promise<BucketDelta[]> {
    const out: BucketDelta[] = [];
    for (let bucket = first; bucket <= last; bucket += 1) {
      const w = `${key}:w:${bucket}`;
      const [counts, paths] = await Promise.all([this.redis.hgetall(w), this.redis.smembers(`${w}:paths`)]);
      if (Object.keys(counts).length === 0) continue;
      const fields = await Promise.all(
        paths.map(async (path) => {
          const f = await this.redis.hgetall(`${w}:f:${path}`);
          const kinds: Record<string, number> = {};
          for (const [name, n] of Object.entries(f)) if (name.startsWith('k:')) kinds[name.slice(2)] = Number(n);
          return { path, differences: Number(f.differences ?? 0), noise: Number(f.noise ?? 0), kinds };
        }),
      );
      const n = (k: string) => Number(counts[k] ?? 0);
      out.push({
        bucket,
        counts: {
          compared: n('compared'),
          matched: n('matched'),
          differed: n('differed'),
          noiseReads: n('noiseReads'),
          errors: n('errors'),
          skipped: n('skipped'),
        },
        fields,
      });
    }
    return out;
  }

  /** Every route the fleet booked, whole (as one replica's book holds it), or what it booked in the last `window`. */
  async routes(window?: ReportWindow): Promise<RouteDelta[]> {
    const now = Date.now();
    const all = await this.whole();
    if (window === undefined) return all;
    const from = now - REPORT_WINDOWS[window];
    return onRedis(async () => {
      const out: RouteDelta[] = [];
      for (const r of all) {
        const buckets = await this.buckets(this.routeKey(r.resource, r.operation), Math.floor(from / BUCKET_MS), Math.floor(now / BUCKET_MS));
        out.push(...windowed({ ...r, buckets }, from));
      }
      return out;
    });
  }

  private async whole(): Promise<RouteDelta[]> {
    return onRedis(async () => {
      const ids = (await this.redis.smembers(`${this.prefix}:routes`)).map((id) => JSON.parse(id) as [string, string]);
      const out: RouteDelta[] = [];
      for (const [resource, operation] of ids) {
        const key = this.routeKey(resource, operation);
        const [counts, paths] = await Promise.all([this.redis.hgetall(`${key}:counts`), this.redis.smembers(`${key}:paths`)]);
        const fields = await Promise.all(
          paths.map(async (path) => {
            const [f, samples] = await Promise.all([this.redis.hgetall(`${key}:f:${path}`), this.redis.lrange(`${key}:s:${path}`, 0, MAX_SAMPLES - 1)]);
            const kinds: Record<string, number> = {};
            for (const [name, n] of Object.entries(f)) if (name.startsWith('k:')) kinds[name.slice(2)] = Number(n);
            return { path, differences: Number(f.differences ?? 0), noise: Number(f.noise ?? 0), kinds, samples: samples.map((s) => JSON.parse(s) as Sample) };
          }),
        );
        out.push({
          resource,
          operation,
          compared: Number(counts.compared ?? 0),
          matched: Number(counts.matched ?? 0),
          differed: Number(counts.differed ?? 0),
          noiseReads: Number(counts.noiseReads ?? 0),
          errors: Number(counts.errors ?? 0),
          skipped: Number(counts.skipped ?? 0),
          thresholds: counts.thresholds ? JSON.parse(counts.thresholds) : DEFAULT_THRESHOLDS,
          fields,
        });
      }
      return out;
    });
  }

  /** When the fleet's report began: its last reset, or the first read booked after it (null: nothing booked yet). */
  async since(): Promise<number | null> {
    const at = Number(await onRedis(() => this.redis.get(`${this.prefix}:since`)));
    return Number.isFinite(at) && at > 0 ? at : null;
  }

  /** Empties the fleet's report: a new window begins at `now`; a reset the report took already (its window begins there or later) is not taken again. */
  async reset(now = Date.now()): Promise<void> {
    await onRedis(async () => {
      const since = Number(await this.redis.get(`${this.prefix}:since`));
      if (Number.isFinite(since) && since >= now) return;
      await this.redis.set(`${this.prefix}:since`, now);
      const ids = (await this.redis.smembers(`${this.prefix}:routes`)).map((id) => JSON.parse(id) as [string, string]);
      const last = Math.floor(now / BUCKET_MS);
      for (const [resource, operation] of ids) {
        const key = this.routeKey(resource, operation);
        const paths = await this.redis.smembers(`${key}:paths`);
        const keys = [`${key}:counts`, `${key}:paths`, ...paths.flatMap((p) => [`${key}:f:${p}`, `${key}:s:${p}`])];
        // the buckets still kept (a bucket's paths are among the route's, or the overflow)
        for (let bucket = last - Math.ceil(WINDOW_KEEP_MS / BUCKET_MS) - 1; bucket <= last + 1; bucket += 1) {
          const w = `${key}:w:${bucket}`;
          keys.push(w, `${w}:paths`, ...[...paths, OVERFLOW].map((p) => `${w}:f:${p}`));
        }
        await this.redis.del(...keys);
      }
      await this.redis.del(`${this.prefix}:routes`);
    });
  }
}
