import type { Redis } from 'ioredis';
import { RedisAnalysisCounters } from './redis-analysis-counters.js';
import type { TrafficCount, TrafficCounters } from './traffic-counters.js';

/** The fleet's traffic figures on Redis: a hash per resource, operation and minute under a prefix of their own, each batch added once. */
export class RedisTrafficCounters implements TrafficCounters {
  // the same once-only hash counters as the analysis's, in a namespace of their own
  private readonly hashes: RedisAnalysisCounters;

  constructor(redis: Redis) {
    this.hashes = new RedisAnalysisCounters(redis, 'v2proxy:traffic:');
  }

  add(counts: readonly TrafficCount[], keepMs: number, batch: string): Promise<void> {
    return this.hashes.add(
      counts.map((c) => ({ route: `${c.resource}:${c.operation}`, stage: 0, index: c.minute, counts: c.counts })),
      keepMs,
      batch,
    );
  }

  read(resource: string, operation: string, minute: number): Promise<Record<string, number>> {
    return this.hashes.read(`${resource}:${operation}`, 0, minute);
  }
}
