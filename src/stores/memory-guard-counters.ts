import type { FleetCounters, GuardTally } from './fleet-counters.js';

/**
 * The guard's counts of one replica (no REDIS_URL, or while Redis is away): the same time buckets
 * as the fleet's counters, in memory, each forgotten once out of every window.
 */
export class MemoryGuardCounters implements FleetCounters {
  private readonly buckets = new Map<string, { total: number; failed: number; until: number }>();

  async tally(added: readonly GuardTally[], window: { bucketMs: number; buckets: number; now: number }): Promise<GuardTally[]> {
    const current = Math.floor(window.now / window.bucketMs);
    for (const [name, b] of this.buckets) if (b.until < window.now) this.buckets.delete(name);
    const name = (t: GuardTally, bucket: number) => `${t.route}:${t.generation}:${t.kind}:${bucket}`;
    for (const t of added) {
      const key = name(t, current);
      const b = this.buckets.get(key) ?? { total: 0, failed: 0, until: 0 };
      b.total += t.total;
      b.failed += t.failed;
      b.until = window.now + window.bucketMs * (window.buckets + 1);
      this.buckets.set(key, b);
    }
    return added.map((t) => {
      let total = 0;
      let failed = 0;
      for (let b = current - window.buckets + 1; b <= current; b += 1) {
        const one = this.buckets.get(name(t, b));
        total += one?.total ?? 0;
        failed += one?.failed ?? 0;
      }
      return { ...t, total, failed };
    });
  }
}
