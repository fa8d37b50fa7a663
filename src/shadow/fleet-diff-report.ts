import type { Redis } from 'ioredis';
import { DEFAULT_THRESHOLDS, MAX_FIELDS, MAX_SAMPLES, OVERFLOW, type RouteDelta, type Sample } from './diff-book.js';
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
      );
    }
    const results = await onRedis(() => pipeline.exec());
    const failed = results?.find(([err]) => err);
    if (!results || failed) throw failed?.[0] ?? new Error('the diff report was not answered');
  }

  /** Every route the fleet booked, whole (as one replica's book holds it). */
  async routes(): Promise<RouteDelta[]> {
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

  /** Empties the fleet's report: a new window begins now. */
  async reset(now = Date.now()): Promise<void> {
    await onRedis(async () => {
      await this.redis.set(`${this.prefix}:since`, now);
      const ids = (await this.redis.smembers(`${this.prefix}:routes`)).map((id) => JSON.parse(id) as [string, string]);
      for (const [resource, operation] of ids) {
        const key = this.routeKey(resource, operation);
        const paths = await this.redis.smembers(`${key}:paths`);
        const keys = [`${key}:counts`, `${key}:paths`, ...paths.flatMap((p) => [`${key}:f:${p}`, `${key}:s:${p}`])];
        await this.redis.del(...keys);
      }
      await this.redis.del(`${this.prefix}:routes`);
    });
  }
}
