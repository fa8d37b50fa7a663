import { controlVersion } from './control-plane.js';
import type { FleetSyncStatus } from './fleet-sync.js';
import { durationMs } from './rollout-config.js';
import { type RolloutSnapshot, type RouteSnapshot, rolledBackAt } from './rollout-snapshot.js';
import type { Served } from './rollout-traffic.js';
import { intervalView, latestChecks, shownState } from './route-progress.js';

/** What a replica adds to its snapshot for `GET /admin/rollout`. */
export interface StatusExtras {
  now: number;
  nativeBackend: string | undefined;
  /** with REDIS_URL: how this replica follows the fleet */
  fleet: FleetSyncStatus | undefined;
  progressiveStore: 'memory' | 'redis';
  served(key: string): Served;
  window(key: string): { requests: number; failures: number };
}

const iso = (ms: number | undefined | null) => (ms === undefined || ms === null ? null : new Date(ms).toISOString());

/** Whether this replica's own rollout file differs from the configuration the fleet runs. */
export function drifted(s: RolloutSnapshot): boolean {
  return s.local.file !== undefined && s.doc.config !== null && s.local.digest !== s.doc.config.digest;
}

/** A route's promotion waiting for a second operator, as shown (null: none, or the file asks for no approvals now). */
function approvalView(s: RolloutSnapshot, r: RouteSnapshot): Record<string, unknown> | null {
  const gate = s.config.approvals;
  const a = r.approval;
  if (!a || !gate) return null;
  return {
    action: a.action,
    toNative: a.toNative,
    requestedBy: a.requestedBy,
    at: iso(a.at),
    reason: a.reason,
    expiresAt: iso(a.at + durationMs(gate.expireAfter)),
  };
}

function routeStatus(s: RolloutSnapshot, r: RouteSnapshot, x: StatusExtras): Record<string, unknown> {
  const rolledBack = rolledBackAt(r, x.now);
  const p = r.progress;
  return {
    resource: r.route.resource,
    operations: r.route.operations,
    native: r.share.native,
    shadow: r.share.shadow,
    verifyWrites: r.route.verifyWrites,
    effectiveNative: s.killSwitch || rolledBack || !x.nativeBackend ? 0 : r.share.native,
    rolledBack,
    rolledBackUntil: rolledBack ? iso(r.rollback?.until) : null,
    rollbacks: r.rollback?.count ?? 0,
    // the last rollback stays shown after it ended: its cause and when it ended
    lastRollback: r.rollback ? { at: iso(r.rollback.at), until: iso(r.rollback.until), ended: !rolledBack, why: r.rollback.why } : null,
    window: x.window(r.key),
    served: x.served(r.key),
    approval: approvalView(s, r),
    progress: r.schedule
      ? {
          // held by the analysis until it can decide: waiting, not an operator's pause
          state: shownState(p),
          step: (p?.step ?? 0) + 1,
          steps: r.schedule.steps.length,
          stepStartedAt: iso(p?.stepStartedAt),
          failures: p?.failures ?? 0,
          pausedBy: p?.pausedBy ?? null,
          reason: p?.reason ?? 'not started yet: the analysis starts the route at its first step',
          changedAt: iso(p?.changedAt),
          lastAbort: p?.lastAbort
            ? { reason: p.lastAbort.reason, at: iso(p.lastAbort.at), figures: p.lastAbort.figures ? intervalView(p.lastAbort.figures) : null }
            : null,
          look: p?.looks ?? 0,
          // each check's latest verdict, with its numbers
          checks: latestChecks(p),
          intervals: (p?.history ?? []).map(intervalView),
        }
      : null,
  };
}

/** `GET /admin/rollout`: the snapshot in force here, as JSON. */
export function rolloutStatus(s: RolloutSnapshot, x: StatusExtras): Record<string, unknown> {
  const published = s.doc.config;
  return {
    // what `If-Match` names to decide a command on this state (the answer's ETag)
    controlVersion: controlVersion(s.head),
    file: s.local.file ?? null,
    loadedAt: iso(s.local.loadedAt),
    lastError: s.local.lastError ?? s.local.refused,
    nativeBackend: x.nativeBackend ?? null,
    killSwitch: s.killSwitch,
    kill: s.doc.kill ? { on: s.doc.kill.on, by: s.doc.kill.actor, at: iso(s.doc.kill.at), reason: s.doc.kill.reason } : null,
    configuration: {
      digest: s.digest,
      ownDigest: s.local.digest,
      drift: drifted(s),
      publishedBy: published?.actor ?? null,
      publishedAt: iso(published?.at),
      version: s.head.version,
    },
    fleet: x.fleet
      ? {
          epoch: x.fleet.epoch,
          version: x.fleet.version,
          staleSeconds: x.fleet.staleSeconds ?? null,
          stale: x.fleet.stale,
          digest: s.local.digest,
          fleetDigest: published?.digest ?? '',
          drift: drifted(s),
        }
      : null,
    progressive: s.routes.some((r) => r.schedule)
      ? {
          store: x.progressiveStore,
          note:
            x.progressiveStore === 'redis'
              ? 'one state per route for the whole fleet; the replica holding the lease judges the intervals'
              : "this replica's memory: one replica only, starting afresh at a restart",
        }
      : null,
    approvals: s.routes.flatMap((r) => {
      const approval = approvalView(s, r);
      return approval ? [{ resource: r.route.resource, operations: r.route.operations, ...approval }] : [];
    }),
    config: s.config,
    routes: s.routes.map((r) => routeStatus(s, r, x)),
  };
}
