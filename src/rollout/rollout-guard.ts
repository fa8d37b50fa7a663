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
  rolledBackUntil = 0;
  rollbacks = 0;

  /** Records a native answer; true when this one tripped a rollback. */
  record(config: GuardConfig, failed: boolean, now: number): boolean {
    const from = now - config.windowSeconds * 1000;
    this.outcomes.push({ at: now, failed });
    while (this.outcomes.length > 0 && (this.outcomes[0] as Outcome).at < from) this.outcomes.shift();
    if (this.isRolledBack(now) || this.outcomes.length < config.minRequests) return false;
    const failures = this.outcomes.reduce((n, o) => n + (o.failed ? 1 : 0), 0);
    if (failures / this.outcomes.length <= config.maxErrorRate) return false;
    this.rolledBackUntil = now + config.cooldownSeconds * 1000;
    this.rollbacks += 1;
    this.outcomes = [];
    return true;
  }

  isRolledBack(now: number): boolean {
    return now < this.rolledBackUntil;
  }

  window(): { requests: number; failures: number } {
    return { requests: this.outcomes.length, failures: this.outcomes.filter((o) => o.failed).length };
  }
}
