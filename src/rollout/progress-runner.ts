import type { AnalysisCount, AnalysisCounters, Lease } from '../stores/fleet-counters.js';
import { countCompared, countServed, countVerified, emptyTally, type IntervalTally, type ShadowComparison, tallyCounts } from './interval-tally.js';
import type { RouteProgress, Schedule } from './route-progress.js';
import { SendOnce } from './send-once.js';

/** An interval of a route's step over, with what the fleet counted in it. */
export interface IntervalCounts {
  index: number;
  endedAt: number;
  counts: Record<string, number>;
}

/** A progressive route as the runner sees it. */
export interface RunnerRoute {
  key: string;
  schedule: Schedule;
  progress: RouteProgress | undefined;
}

export interface RunnerDeps {
  now(): number;
  counters: AnalysisCounters;
  lease: Lease;
  /** this replica, as the lease names it */
  holder: string;
  routes(): RunnerRoute[];
  /** a route without a state starts at its first step */
  start(key: string): Promise<void>;
  /** an interval over, judged into the route's state: the route's state afterwards (undefined: gone from the file) */
  judged(key: string, stage: number, interval: IntervalCounts): Promise<RouteProgress | undefined>;
  /** a failure of the counters or the state store (the next tick tries again) */
  failed(what: string, err: unknown): void;
}

// how often counts are sent and intervals judged; an interval is judged once every replica has sent its counts
const TICK_MS = 250;
const SETTLE_MS = 2 * TICK_MS;
const LEASE_MS = 3_000;
// intervals missed while no replica judged (all down) are not judged late, except the last few
const CATCH_UP = 3;
const FAILURE_EVERY_MS = 30_000;

/**
 * Runs the progressive routes: gathers what this replica served per route, step and interval,
 * sends it to the fleet's counters every tick, and on the replica that holds the lease judges each
 * interval once it is over and moves the route's state (through the control reducer: an operator's
 * change made meanwhile wins, and the interval counts on the new state only if it is still the same stage).
 */
export class ProgressRunner {
  private pending = new Map<string, { route: string; stage: number; index: number; tally: IntervalTally }>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly sender: SendOnce<AnalysisCount>;

  // when a failure was last told (a Redis that is away fails every tick: it is said every FAILURE_EVERY_MS)
  private failureToldAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: RunnerDeps) {
    this.sender = new SendOnce(deps.counters);
  }

  private failed(what: string, err: unknown): void {
    const now = this.deps.now();
    if (now - this.failureToldAt < FAILURE_EVERY_MS) return;
    this.failureToldAt = now;
    this.deps.failed(what, err);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
  }

  /** Stops judging and sends what is left (after a round under way); answers how many intervals' counts could not be sent. */
  async close(): Promise<number> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.flush();
    return this.pending.size + this.sender.inDoubt;
  }

  /** The interval of a route's step a moment falls in. */
  private indexOf(route: RunnerRoute, at: number): number {
    const p = route.progress as RouteProgress;
    return Math.max(0, Math.floor((at - p.stepStartedAt) / route.schedule.intervalMs));
  }

  private tallyFor(route: RunnerRoute): IntervalTally | undefined {
    const p = route.progress;
    if (!p) return undefined;
    const index = this.indexOf(route, this.deps.now());
    const id = `${route.key}|${p.stage}|${index}`;
    let entry = this.pending.get(id);
    if (!entry) {
      entry = { route: route.key, stage: p.stage, index, tally: emptyTally() };
      this.pending.set(id, entry);
    }
    return entry.tally;
  }

  /** A request a route served (5xx and transport failures failed), with how long it took. */
  served(route: RunnerRoute, side: 'translate' | 'native', failed: boolean, ms: number): void {
    const tally = this.tallyFor(route);
    if (tally) countServed(tally, side, failed, ms);
  }

  /** A shadowed read of a route, compared. */
  compared(route: RunnerRoute, comparison: ShadowComparison): void {
    const tally = this.tallyFor(route);
    if (tally) countCompared(tally, comparison);
  }

  /** A write of a route, read back and checked. */
  verified(route: RunnerRoute, differed: boolean): void {
    const tally = this.tallyFor(route);
    if (tally) countVerified(tally, differed);
  }

  /** Sends the counts gathered here, once; kept for the next try when the counters are away. */
  async flush(): Promise<void> {
    if (this.pending.size === 0 && !this.sender.owed) return;
    const keepMs = Math.max(60_000, ...this.deps.routes().map((r) => 4 * r.schedule.intervalMs));
    try {
      await this.sender.send(() => {
        const batch = [...this.pending.values()];
        this.pending = new Map();
        return batch.map((b) => ({ route: b.route, stage: b.stage, index: b.index, counts: tallyCounts(b.tally) }));
      }, keepMs);
    } catch (err) {
      this.failed('sending the analysis counts', err);
    }
  }

  /** One round: send the counts, and judge what is due if this replica holds the lease. One round at a time. */
  tick(): Promise<void> {
    this.running ??= this.round().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async round(): Promise<void> {
    const routes = this.deps.routes();
    if (routes.length === 0) return;
    await this.flush();
    let held: boolean;
    try {
      held = await this.deps.lease.hold(this.deps.holder, LEASE_MS);
    } catch (err) {
      this.failed('holding the analysis lease', err);
      return;
    }
    if (!held) return;
    for (const route of routes) {
      try {
        await this.judge(route);
      } catch (err) {
        this.failed(`judging ${route.key}`, err);
      }
    }
  }

  /** Whether this replica still holds counts of a route's interval (or an earlier one) it could not send yet. */
  private unsent(key: string, stage: number, index: number): boolean {
    for (const b of this.pending.values()) if (b.route === key && b.stage === stage && b.index <= index) return true;
    return this.sender.holds((c) => c.route === key && c.stage === stage && c.index <= index);
  }

  private async judge(route: RunnerRoute): Promise<void> {
    const { schedule } = route;
    const now = this.deps.now();
    let p = route.progress;
    if (!p) {
      await this.deps.start(route.key);
      return;
    }
    const { intervalMs } = schedule;
    const last = Math.floor((now - SETTLE_MS - p.stepStartedAt) / intervalMs) - 1;
    for (let i = Math.max(p.evaluated + 1, last - CATCH_UP + 1); i <= last; i += 1) {
      // counts of it still here (a send that failed, or that waited on a stalled Redis while more came):
      // judged once they are sent, never without them
      if (this.unsent(route.key, p.stage, i)) return;
      const counts = await this.deps.counters.read(route.key, p.stage, i);
      const next = await this.deps.judged(route.key, p.stage, { index: i, endedAt: p.stepStartedAt + (i + 1) * intervalMs, counts });
      if (!next || next.stage !== p.stage || next.evaluated < i) return;
      p = next;
    }
  }
}
