import { evidenceOf, type Outcome } from '../errors/request-outcome.js';
import type { ControlPlane } from './control-plane.js';
import { type Backend, type Decision, type DecisionInput, decideBackend } from './decide-backend.js';
import type { FleetTraffic } from './fleet-traffic.js';
import type { GuardAccountant } from './guard-accountant.js';
import type { ShadowComparison } from './interval-tally.js';
import type { OverrideSecret } from './override-secret.js';
import type { ProgressRunner } from './progress-runner.js';

/** Requests a route served, by side and by override (this replica's, since it started). */
export interface Served {
  translate: number;
  native: number;
  /** of those, sent where an operator's override asked */
  override: number;
}

/**
 * What the request pipeline asks of the rollout: a side for each request (decided on the snapshot
 * it takes once), and what it then saw, fed to the guard and the progressive analysis. Traffic an
 * override steered is evidence of nothing: it is counted in `served` only.
 */
export class RolloutTraffic {
  private readonly served = new Map<string, Served>();

  constructor(
    private readonly deps: {
      control: ControlPlane;
      guard: GuardAccountant;
      runner: ProgressRunner;
      fleetTraffic: FleetTraffic;
      nativeBackend: boolean;
      overrideSecret: OverrideSecret | undefined;
      now(): number;
    },
  ) {}

  decide(input: DecisionInput): Decision {
    const { deps } = this;
    const d = decideBackend(deps.control.snapshot, input, { nativeBackend: deps.nativeBackend, overrideSecret: deps.overrideSecret, now: deps.now() });
    if (d.route) {
      let counts = this.served.get(d.route.key);
      if (!counts) {
        counts = { translate: 0, native: 0, override: 0 };
        this.served.set(d.route.key, counts);
      }
      counts[d.backend] += 1;
      if (!d.evidence) counts.override += 1;
    }
    return d;
  }

  /**
   * A v2 request ended, with its one outcome and the time its side took: the fleet's traffic
   * figures count what a side answered; the guard (native) and a progressive route's analysis count
   * only evidence: a side's answer for it, a backend's failure against it, nothing else.
   */
  answered(d: Decision | undefined, resource: string, operation: string, side: Backend, outcome: Outcome, seconds: number): void {
    const evidence = evidenceOf(outcome);
    if (evidence === undefined && outcome !== 'client_error') return;
    const failed = evidence === 'bad';
    this.deps.fleetTraffic.count(resource, operation, side, failed, seconds * 1000);
    const route = d?.route;
    if (evidence === undefined || !route || !d?.evidence) return;
    if (side === 'native') this.deps.guard.native(route, failed);
    if (route.schedule) this.deps.runner.served({ key: route.key, schedule: route.schedule, progress: route.progress }, side, failed, seconds * 1000);
  }

  /** A shadow read of a decided request compared: the analysis counts it, the guard its reported difference. */
  compared(d: Decision | undefined, comparison: ShadowComparison): void {
    const route = d?.route;
    if (!route || !d?.evidence) return;
    if (route.schedule) this.deps.runner.compared({ key: route.key, schedule: route.schedule, progress: route.progress }, comparison);
    this.deps.guard.compared(route, comparison.reported);
  }

  /** A verified write of a decided request: the analysis counts it (the write diff check). */
  verified(d: Decision | undefined, differed: boolean): void {
    const route = d?.route;
    if (!route?.schedule || !d?.evidence) return;
    this.deps.runner.verified({ key: route.key, schedule: route.schedule, progress: route.progress }, differed);
  }

  servedOn(key: string): Served {
    return { ...(this.served.get(key) ?? { translate: 0, native: 0, override: 0 }) };
  }
}
