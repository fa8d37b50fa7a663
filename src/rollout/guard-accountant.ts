import type { FleetCounters, GuardTally } from '../stores/fleet-counters.js';
import type { ControlPlane } from './control-plane.js';
import { DEFAULT_GUARD } from './rollout-config.js';
import { type RouteSnapshot, rolledBackAt } from './rollout-snapshot.js';

/** A guard window that passed its limit: what rolls the route back, in words and figures. */
export function guardVerdict(
  window: { kind: 'native' | 'diff'; total: number; failed: number },
  guard: { minRequests: number; maxErrorRate: number; maxDiffRate?: number | undefined; windowSeconds: number },
): { why: string; figures: Record<string, unknown> } | undefined {
  const limit = window.kind === 'native' ? guard.maxErrorRate : guard.maxDiffRate;
  if (limit === undefined || window.total < guard.minRequests || window.failed / window.total <= limit) return undefined;
  const rate = Math.round((window.failed / window.total) * 10_000) / 10_000;
  return {
    why:
      window.kind === 'native'
        ? `native error share ${rate} above ${limit} (${window.failed} of ${window.total} in ${guard.windowSeconds} s)`
        : `share of reads with a reported difference ${rate} above ${limit} (${window.failed} of ${window.total} in ${guard.windowSeconds} s)`,
    figures: {
      kind: window.kind,
      requests: window.total,
      failed: window.failed,
      rate,
      limit,
      windowSeconds: guard.windowSeconds,
      minRequests: guard.minRequests,
    },
  };
}

/**
 * The guard's accounting: each native answer (and compared shadow read) of a route is counted here,
 * sent to the fleet's counters off the request path (every `flushMs`; at once for a single replica),
 * and the route is judged on the fleet's whole window: past its limit, a `guard-trip` rolls it back
 * for every replica. While the fleet's counters cannot be reached, this replica's own window decides,
 * for it alone.
 */
export class GuardAccountant {
  private pending = new Map<string, GuardTally>();
  private readonly windows = new Map<string, { requests: number; failures: number }>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  // counts the fleet's counters did not take (Redis away): judged on this replica alone
  private unsent = 0;

  constructor(
    private readonly deps: {
      counters: FleetCounters;
      /** this replica's own counters: used while `counters` cannot be reached */
      alone: FleetCounters;
      control: ControlPlane;
      now(): number;
      /** judge at each answer (a single replica: the counters are its own memory) */
      immediate: boolean;
      flushMs: number;
      /** a route rolled back by this replica's count (`alone`: for this replica only, Redis being away) */
      tripped(route: RouteSnapshot, why: string, alone: boolean): void;
    },
  ) {}

  start(): void {
    if (this.deps.immediate) return;
    this.timer ??= setInterval(() => void this.flush(), this.deps.flushMs);
    this.timer.unref();
  }

  /** Stops the timer and sends what is left; answers how many counts the fleet did not take (judged here alone). */
  async close(): Promise<number> {
    clearInterval(this.timer);
    this.timer = undefined;
    const before = this.unsent;
    await this.flush();
    return this.unsent - before;
  }

  /** A native answer (5xx or none: failed). */
  native(route: RouteSnapshot, failed: boolean): void {
    this.add(route, 'native', failed);
  }

  /** A compared shadow read (with a reported difference or not): the guard's second trigger. */
  compared(route: RouteSnapshot, differed: boolean): void {
    this.add(route, 'diff', differed);
  }

  /** The last window seen of a route, for its status. */
  window(key: string): { requests: number; failures: number } {
    return this.windows.get(key) ?? { requests: 0, failures: 0 };
  }

  private add(route: RouteSnapshot, kind: GuardTally['kind'], failed: boolean): void {
    // counting starts afresh after each rollback
    const generation = route.rollback?.count ?? 0;
    const id = `${route.key}|${generation}|${kind}`;
    let tally = this.pending.get(id);
    if (!tally) {
      tally = { route: route.key, generation, kind, total: 0, failed: 0 };
      this.pending.set(id, tally);
    }
    tally.total += 1;
    if (failed) tally.failed += 1;
    if (this.deps.immediate) void this.flush();
  }

  /** Sends what was counted and judges each route on its window; one flush at a time. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => (this.pending.size > 0 ? this.flush() : undefined));
    this.flushing = this.round().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async round(): Promise<void> {
    if (this.pending.size === 0) return;
    const { control, now } = this.deps;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const guard = control.snapshot.config.guard ?? DEFAULT_GUARD;
    const at = now();
    const bucketMs = Math.max(1_000, Math.ceil((guard.windowSeconds * 1000) / 30));
    const window = { bucketMs, buckets: Math.ceil((guard.windowSeconds * 1000) / bucketMs), now: at };
    let alone = false;
    let windows: GuardTally[];
    try {
      windows = await this.deps.counters.tally(batch, window);
    } catch {
      alone = true;
      this.unsent += batch.reduce((n, t) => n + t.total, 0);
      windows = await this.deps.alone.tally(batch, window);
    }
    for (const w of windows) {
      if (w.kind === 'native') this.windows.set(w.route, { requests: w.total, failures: w.failed });
      const route = control.snapshot.routes.find((r) => r.key === w.route);
      if (!route || rolledBackAt(route, at)) continue;
      const verdict = guardVerdict(w, guard);
      if (!verdict) continue;
      const until = at + guard.cooldownSeconds * 1000;
      if (!alone) {
        try {
          const made = await control.change({ type: 'guard-trip', key: w.route, until, why: verdict.why, figures: verdict.figures });
          if (made.kind === 'changed') this.deps.tripped(route, verdict.why, false);
          continue;
        } catch {
          // Redis went away meanwhile: this replica protects itself
        }
      }
      control.rollBackAlone(w.route, until);
      this.deps.tripped(route, verdict.why, true);
    }
  }
}
