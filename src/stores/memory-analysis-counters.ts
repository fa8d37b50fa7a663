import type { AnalysisCount, AnalysisCounters } from './fleet-counters.js';

/** The analysis counts of a single replica (no REDIS_URL): in memory, an interval forgotten once read past its keep time. */
export class MemoryAnalysisCounters implements AnalysisCounters {
  private readonly sums = new Map<string, { counts: Record<string, number>; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  // (a batch in memory is never left half-sent: its id needs no mark)
  async add(counts: readonly AnalysisCount[], keepMs: number, _batch?: string): Promise<void> {
    const now = this.now();
    for (const [key, entry] of this.sums) if (entry.until < now) this.sums.delete(key);
    for (const c of counts) {
      const key = `${c.route}:${c.stage}:${c.index}`;
      const entry = this.sums.get(key) ?? { counts: {}, until: 0 };
      for (const [field, n] of Object.entries(c.counts)) entry.counts[field] = (entry.counts[field] ?? 0) + n;
      entry.until = now + keepMs;
      this.sums.set(key, entry);
    }
  }

  async read(route: string, stage: number, index: number): Promise<Record<string, number>> {
    return { ...(this.sums.get(`${route}:${stage}:${index}`)?.counts ?? {}) };
  }
}
