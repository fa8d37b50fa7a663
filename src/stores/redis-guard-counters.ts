import type { Redis } from 'ioredis';
import type { FleetCounters, GuardTally } from './fleet-counters.js';
import { onRedis } from './state-store-error.js';

/**
 * The guard's counts on Redis: a hash per route, kind and time bucket (`t` total, `f` failed),
 * expiring once out of every window. Adding and reading the window are one pipeline per flush,
 * never per request.
 */
export class RedisGuardCounters implements FleetCounters {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'v2proxy:guard:',
  ) {}

  async tally(added: readonly GuardTally[], window: { bucketMs: number; buckets: number; now: number }): Promise<GuardTally[]> {
    const current = Math.floor(window.now / window.bucketMs);
    const name = (t: GuardTally, bucket: number) => `${this.prefix}${t.route}:${t.generation}:${t.kind}:${bucket}`;
    const pipeline = this.redis.pipeline();
    for (const t of added) {
      const key = name(t, current);
      pipeline
        .hincrby(key, 't', t.total)
        .hincrby(key, 'f', t.failed)
        .pexpire(key, window.bucketMs * (window.buckets + 1));
    }
    for (const t of added) for (let b = current - window.buckets + 1; b <= current; b += 1) pipeline.hmget(name(t, b), 't', 'f');
    const results = await onRedis(() => pipeline.exec());
    if (!results) throw new Error('the guard counts were not answered');
    const reads = results.slice(added.length * 3);
    return added.map((t, i) => {
      let total = 0;
      let failed = 0;
      for (const [err, value] of reads.slice(i * window.buckets, (i + 1) * window.buckets)) {
        if (err) throw err;
        const [tt, ff] = value as [string | null, string | null];
        total += Number(tt ?? 0);
        failed += Number(ff ?? 0);
      }
      return { ...t, total, failed };
    });
  }
}
