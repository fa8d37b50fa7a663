/**
 * The rollout decisions every replica shares, under one version number: the kill switch an
 * operator pulled (or none: the file's), and each route the guard rolled back, until when.
 */
export interface FleetState {
  /** when this state was first written: a Redis that lost its data starts a new epoch, whose versions start again */
  epoch: string;
  version: number;
  /** the admin kill switch: on, off, or unset (the rollout file's `killSwitch` decides) */
  kill: 'on' | 'off' | '';
  /** route key → the end of its rollback (ms since epoch) and how many rollbacks it has had */
  rollbacks: Record<string, { until: number; count: number }>;
  /** the digest of the rollout file a replica loaded last ('' before any) */
  digest: string;
  /** route key → the progressive rollout's state of the route (JSON), under its own revision */
  progress: Record<string, { rev: number; text: string }>;
}

export type FleetChange =
  | { kind: 'kill'; kill: FleetState['kill'] }
  | { kind: 'rollback'; key: string; until: number; now: number }
  | { kind: 'config'; digest: string }
  /** applied only over revision `rev - 1` of the route's progress (0: none yet): one writer wins */
  | { kind: 'progress'; key: string; rev: number; text: string };

/** Where the fleet state lives (Redis): each change is atomic, bumps the version and is announced. */
export interface FleetStore {
  read(): Promise<FleetState>;
  /** `applied`: false when the change was in force already (a rollback another replica made first) */
  change(change: FleetChange): Promise<{ state: FleetState; applied: boolean }>;
  /** writes `state` only if there is none (a Redis that came back empty gets the state a replica still holds) */
  seed(state: FleetState): Promise<void>;
}

export const NO_FLEET_STATE: FleetState = { epoch: '', version: 0, kill: '', rollbacks: {}, digest: '', progress: {} };

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
  add(counts: readonly AnalysisCount[], keepMs: number): Promise<void>;
  read(route: string, stage: number, index: number): Promise<Record<string, number>>;
}

/** Who evaluates the fleet's intervals: held by one replica at a time, renewed while it lives. */
export interface Lease {
  hold(holder: string, ttlMs: number): Promise<boolean>;
}
