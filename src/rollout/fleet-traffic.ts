import type { TrafficCount, TrafficCounters } from '../stores/traffic-counters.js';
import { addTally, countServed, emptyTally, type IntervalTally, quantileMs, tallyCounts, tallyOf } from './interval-tally.js';
import type { KnownRoutes } from './rollout-config.js';
import { type RolloutSnapshot, rolledBackAt } from './rollout-snapshot.js';
import { SendOnce } from './send-once.js';

const MINUTE = 60_000;
/** what the console and /admin/rollout show: the fleet's last few minutes */
export const RECENT_MINUTES = 5;
const KEEP_MS = 2 * RECENT_MINUTES * MINUTE;
const FLUSH_MS = 1000;

/** One side's figures over the recent minutes. */
export interface SideTraffic {
  served: number;
  errors: number;
  errorRate: number | null;
  p99Ms: number | null;
}

/** A resource's operation: the route that serves it, its target and effective native share, and what each side served. */
export interface TrafficRow {
  resource: string;
  operation: string;
  /** the rollout route that serves it (`resource|ops` as the file names it), or null: translated, no route */
  route: string | null;
  native: number;
  effectiveNative: number;
  sides: { translate: SideTraffic; native: SideTraffic };
}

/** One resource's operation's counts of one minute, not yet sent. */
interface Minute {
  resource: string;
  operation: string;
  minute: number;
  tally: IntervalTally;
}

const side = (t: IntervalTally, s: 'translate' | 'native'): SideTraffic => ({
  served: t.requests[s],
  errors: t.errors[s],
  errorRate: t.requests[s] === 0 ? null : Math.round((t.errors[s] / t.requests[s]) * 1e6) / 1e6,
  p99Ms: quantileMs(t.latency[s], 0.99),
});

/**
 * What every replica served per resource and operation, by side, counted by minute in the fleet's
 * counters (Redis with REDIS_URL): every v2 request, fixed-share routes and those no route serves
 * included, so an operator sees where traffic goes and how each side does.
 */
export class FleetTraffic {
  private pending = new Map<string, Minute>();
  // resource → operation → the entry of `pending` counted into now
  private current = new Map<string, Map<string, Minute>>();
  private timer: NodeJS.Timeout | undefined;
  private readonly sender: SendOnce<TrafficCount>;
  // a Redis that is away fails every flush: it is told once a minute
  private failureToldAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: {
      counters: Pick<TrafficCounters, 'add' | 'read'>;
      now(): number;
      failed(err: unknown): void;
    },
  ) {
    this.sender = new SendOnce(deps.counters);
  }

  private static id(resource: string, operation: string, minute: number): string {
    return `${resource}|${operation}|${minute}`;
  }

  /** A v2 request answered by a side (5xx or none: failed), with how long it took. */
  count(resource: string, operation: string, s: 'translate' | 'native', failed: boolean, ms: number): void {
    const index = Math.floor(this.deps.now() / MINUTE);
    // the minute's entry of this resource and operation, found without building a key per request
    let ops = this.current.get(resource);
    if (!ops) {
      ops = new Map();
      this.current.set(resource, ops);
    }
    let entry = ops.get(operation);
    if (!entry || entry.minute !== index) {
      const id = FleetTraffic.id(resource, operation, index);
      entry = this.pending.get(id) ?? { resource, operation, minute: index, tally: emptyTally() };
      this.pending.set(id, entry);
      ops.set(operation, entry);
    }
    countServed(entry.tally, s, failed, ms);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** Stops the timer and sends what is left; answers how many minutes' counts could not be sent. */
  async close(): Promise<number> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    return this.pending.size + this.sender.inDoubt;
  }

  /** Sends what was counted here, once; kept for the next try when the counters are away. */
  async flush(): Promise<void> {
    if (this.pending.size === 0 && !this.sender.owed) return;
    try {
      await this.sender.send(() => {
        const batch = [...this.pending.values()];
        this.pending = new Map();
        this.current = new Map();
        return batch.map((b) => ({ resource: b.resource, operation: b.operation, minute: b.minute, counts: tallyCounts(b.tally) }));
      }, KEEP_MS);
    } catch (err) {
      if (this.deps.now() - this.failureToldAt >= MINUTE) {
        this.failureToldAt = this.deps.now();
        this.deps.failed(err);
      }
    }
  }

  /** Every known resource's operations with their route, shares and the fleet's last minutes (this replica's unsent counts included). */
  async rows(known: KnownRoutes, snapshot: RolloutSnapshot, nativeBackend: boolean): Promise<TrafficRow[]> {
    const now = this.deps.now();
    const last = Math.floor(now / MINUTE);
    const indexes = Array.from({ length: RECENT_MINUTES }, (_, i) => last - i);
    const pairs = [...known.entries()].flatMap(([resource, ops]) => ops.map((operation) => ({ resource, operation })));
    return Promise.all(
      pairs.map(async ({ resource, operation }) => {
        const total = emptyTally();
        const read = await Promise.all(indexes.map((i) => this.deps.counters.read(resource, operation, i).catch(() => ({}))));
        for (const counts of read) addTally(total, tallyOf(counts));
        for (const i of indexes) {
          const mine = this.pending.get(FleetTraffic.id(resource, operation, i));
          if (mine) addTally(total, mine.tally);
        }
        const route = snapshot.routeFor(resource, operation);
        const effective = !route || !nativeBackend || snapshot.killSwitch || rolledBackAt(route, now) ? 0 : route.share.native;
        return {
          resource,
          operation,
          route: route?.key ?? null,
          native: route?.share.native ?? 0,
          effectiveNative: effective,
          sides: { translate: side(total, 'translate'), native: side(total, 'native') },
        };
      }),
    );
  }
}
