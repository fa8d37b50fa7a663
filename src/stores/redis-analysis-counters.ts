import type { Redis } from 'ioredis';
import type { AnalysisCount, AnalysisCounters } from './fleet-counters.js';
import { onRedis } from './state-store-error.js';

// a batch is applied once: a send that timed out on a stalled Redis is still queued there, and runs
// when it wakes; the same batch sent again finds its mark and adds nothing
const ADD_ONCE = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return 0 end
for _, c in ipairs(cjson.decode(ARGV[2])) do
  for field, n in pairs(c.counts) do redis.call('HINCRBY', c.key, field, n) end
  redis.call('PEXPIRE', c.key, ARGV[1])
end
return 1`;

/**
 * The progressive rollout's counts on Redis: a hash per route, step and interval, each counter a
 * field, expiring once judged. Each replica adds one batch per flush (never per request), once.
 */
export class RedisAnalysisCounters implements AnalysisCounters {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'v2proxy:analysis:',
  ) {}

  private name(route: string, stage: number, index: number): string {
    return `${this.prefix}${route}:${stage}:${index}`;
  }

  async add(counts: readonly AnalysisCount[], keepMs: number, batch: string): Promise<void> {
    if (counts.length === 0) return;
    const body = counts.map((c) => ({
      key: this.name(c.route, c.stage, c.index),
      counts: Object.fromEntries(Object.entries(c.counts).filter(([, n]) => n !== 0)),
    }));
    // in a pipeline, as the other stores send theirs: a timed-out command is one of its results, never a loose rejection
    const pipeline = this.redis.pipeline();
    pipeline.eval(ADD_ONCE, 1, `${this.prefix}batch:${batch}`, Math.max(1, Math.round(keepMs)), JSON.stringify(body));
    const results = await onRedis(() => pipeline.exec());
    const failed = results?.find(([err]) => err);
    if (!results || failed) throw failed?.[0] ?? new Error('the analysis counts were not answered');
  }

  async read(route: string, stage: number, index: number): Promise<Record<string, number>> {
    const raw = await onRedis(() => this.redis.hgetall(this.name(route, stage, index)));
    return Object.fromEntries(Object.entries(raw).map(([field, n]) => [field, Number(n)]));
  }
}
