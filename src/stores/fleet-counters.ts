/** What the replicas of a fleet count together: the guard's windows, the progressive analysis's intervals, and who judges them. */

/** Native answers (or compared shadow reads) of one route: how many, and how many failed (or differed). */
export interface GuardTally {
  /** the route's key and its rollback count (counting starts afresh after each rollback) */
  route: string;
  generation: number;
  kind: 'native' | 'diff';
  total: number;
  failed: number;
}

/** The guard's counts across the fleet: per route, per time bucket, summed over the window. */
export interface FleetCounters {
  /** adds this replica's counts to the current bucket and answers each route's window across the fleet (the same order) */
  tally(added: readonly GuardTally[], window: { bucketMs: number; buckets: number; now: number }): Promise<GuardTally[]>;
}

/** One route's analysis counts (named counters) for one interval of one step (`stage`), as a replica adds them. */
export interface AnalysisCount {
  route: string;
  stage: number;
  index: number;
  counts: Record<string, number>;
}

/** The progressive rollout's counts across the fleet: each replica adds, the evaluator reads an interval's sums. */
export interface AnalysisCounters {
  /**
   * Adds a batch once: a batch sent again under the same `batch` id (its first send timed out, and
   * may yet have been applied) is not added twice.
   */
  add(counts: readonly AnalysisCount[], keepMs: number, batch: string): Promise<void>;
  read(route: string, stage: number, index: number): Promise<Record<string, number>>;
}

/** Who evaluates the fleet's intervals: held by one replica at a time, renewed while it lives. */
export interface Lease {
  hold(holder: string, ttlMs: number): Promise<boolean>;
}
