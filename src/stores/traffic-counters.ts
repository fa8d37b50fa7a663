/** What the replicas served of one resource's operation in one minute, by side (named counters). */
export interface TrafficCount {
  resource: string;
  operation: string;
  /** the minute (ms since the epoch / 60,000) */
  minute: number;
  counts: Record<string, number>;
}

/** The fleet's traffic figures: each replica adds its minutes, the console and /admin/rollout read them. */
export interface TrafficCounters {
  /** Adds a batch once: the same `batch` id sent again (its first send may have been applied) adds nothing. */
  add(counts: readonly TrafficCount[], keepMs: number, batch: string): Promise<void>;
  read(resource: string, operation: string, minute: number): Promise<Record<string, number>>;
}
