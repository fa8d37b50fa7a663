import type { AnalysisCounters } from './fleet-counters.js';

/** What the replicas served of one resource's operation in one minute, by side (named counters). */
export interface TrafficCount {
  resource: string;
  operation: string;
  /** the minute (ms since the epoch / 60,000) */
  minute: number;
  counts: Record<string, number>;
}

/**
 * The fleet's traffic figures: each replica adds its minutes, the console and /admin/rollout read
 * them. Kept in hash counters of their own (the same once-only counters as the progressive
 * analysis's, in another namespace or map): Redis's with a fleet, else this replica's memory.
 */
export class TrafficCounters {
  constructor(private readonly hashes: AnalysisCounters) {}

  /** Adds a batch once: the same `batch` id sent again (its first send may have been applied) adds nothing. */
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
