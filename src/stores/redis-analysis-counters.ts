import type { Redis } from 'ioredis';
import type { AnalysisCount, AnalysisCounters } from './fleet-counters.js';
import { onRedis } from './state-store-error.js';

/**
 * The progressive rollout's counts on Redis: a hash per route, step and interval, each counter a
 * field, expiring once judged. Each replica adds with one pipeline per flush, never per request.
 */
export class RedisAnalysisCounters implements AnalysisCounters {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'v2proxy:analysis:',
  ) {}

  private name(route: string, stage: number, index: number): string {
    return `${this.prefix}${route}:${stage}:${index}`;
  }

  async add(counts: readonly AnalysisCount[], keepMs: number): Promise<void> {
    if (counts.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const c of counts) {
      const key = this.name(c.route, c.stage, c.index);
      for (const [field, n] of Object.entries(c.counts)) if (n !== 0) pipeline.hincrby(key, field, n);
      pipeline.pexpire(key, keepMs);
    }
    const results = await onRedis(() => pipeline.exec());
    const failed = results?.find(([err]) => err);
    if (failed) throw failed[0];
  }

  async read(route: string, stage: number, index: number): Promise<Record<string, number>> {
    const raw = await onRedis(() => this.redis.hgetall(this.name(route, stage, index)));
    return Object.fromEntries(Object.entries(raw).map(([field, n]) => [field, Number(n)]));
  }
}
