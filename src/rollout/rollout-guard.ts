import type { GuardConfig } from './rollout-config.js';

interface Outcome {
  at: number;
  failed: boolean;
}

/**
 * Watches one route's native answers over a sliding window: when the share of failures (5xx or
 * transport errors) passes `maxErrorRate` with at least `minRequests` in the window, the route goes
 * back to translation for `cooldownSeconds`.
 */
export class RouteGuard {
  private outcomes: Outcome[] = [];
  private diffs: Outcome[] = [];
  rolledBackUntil = 0;
  rollbacks = 0;

  /** Records a native answer; true when this one tripped a rollback. */
  record(config: GuardConfig, failed: boolean, now: number): boolean {
    return this.trip(this.outcomes, config, config.maxErrorRate, failed, now);
  }

  /** Records a compared shadow read (with a reported difference or not); true when it tripped a rollback. */
  recordDiff(config: GuardConfig, differed: boolean, now: number): boolean {
    if (config.maxDiffRate === undefined) return false;
    return this.trip(this.diffs, config, config.maxDiffRate, differed, now);
  }

  private trip(window: Outcome[], config: GuardConfig, maxRate: number, failed: boolean, now: number): boolean {
    const from = now - config.windowSeconds * 1000;
    window.push({ at: now, failed });
    while (window.length > 0 && (window[0] as Outcome).at < from) window.shift();
    if (this.isRolledBack(now) || window.length < config.minRequests) return false;
    const failures = window.reduce((n, o) => n + (o.failed ? 1 : 0), 0);
    if (failures / window.length <= maxRate) return false;
    this.rollBack(config, now);
    return true;
  }

  /** Back to translation for `cooldownSeconds`; the windows start afresh. */
  rollBack(config: GuardConfig, now: number): void {
    this.rolledBackUntil = now + config.cooldownSeconds * 1000;
    this.rollbacks += 1;
    this.outcomes = [];
    this.diffs = [];
  }

  isRolledBack(now: number): boolean {
    return now < this.rolledBackUntil;
  }

  window(): { requests: number; failures: number } {
    return { requests: this.outcomes.length, failures: this.outcomes.filter((o) => o.failed).length };
  }
}
