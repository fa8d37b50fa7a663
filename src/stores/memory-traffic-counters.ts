import { MemoryAnalysisCounters } from './memory-analysis-counters.js';
import type { TrafficCount, TrafficCounters } from './traffic-counters.js';

/** A single replica's traffic figures (no REDIS_URL): in memory, a minute forgotten once past its keep time. */
export class MemoryTrafficCounters implements TrafficCounters {
  // the same counters as the analysis's, held apart from them
  private readonly sums: MemoryAnalysisCounters;

  constructor(now: () => number = Date.now) {
    this.sums = new MemoryAnalysisCounters(now);
  }

  add(counts: readonly TrafficCount[], keepMs: number, batch: string): Promise<void> {
    return this.sums.add(
      counts.map((c) => ({ route: `${c.resource}:${c.operation}`, stage: 0, index: c.minute, counts: c.counts })),
      keepMs,
      batch,
    );
  }

  read(resource: string, operation: string, minute: number): Promise<Record<string, number>> {
    return this.sums.read(`${resource}:${operation}`, 0, minute);
  }
}
