import type { ControlHead } from '../stores/control-store.js';
import { bucketKeyOf, type ControlDoc, EMPTY_DOC, type PendingApproval, type Rollback, routeKey } from './control-document.js';
import { scheduleOfRoute } from './control-reducer.js';
import { NO_ROLLOUT, type Operation, type RolloutConfig, type RolloutRoute } from './rollout-config.js';
import { fitToSchedule, type RouteProgress, type Schedule, shareOf } from './route-progress.js';

/** What this replica knows of its own rollout file (the fleet may run another). */
export interface LocalSource {
  /** ROLLOUT_FILE (undefined: no rollout, every v2 request translated) */
  file: string | undefined;
  /** the configuration and digest of the file as this replica last read it good */
  config: RolloutConfig;
  digest: string;
  loadedAt: number | undefined;
  /** the last refusal of the file, until a good one */
  lastError: string | null;
  /** why the fleet's configuration is not in force here (this replica cannot use it), if so */
  refused: string | null;
  /** routes this replica rolled back alone while Redis was away: key → until */
  rollbacks: Readonly<Record<string, number>>;
}

/** One route as a request sees it. */
export interface RouteSnapshot {
  readonly key: string;
  /** what its callers are bucketed by (its key, unless the document keeps an older one) */
  readonly bucketKey: string;
  readonly route: RolloutRoute;
  /** a progressive route's steps and analysis */
  readonly schedule: Schedule | undefined;
  /** the shares it serves with: the file's, or its progressive state's (before the kill switch and the guard) */
  readonly share: { readonly native: number; readonly shadow: number };
  /** the guard's last rollback of it, if any (it is in force while `until` is ahead) */
  readonly rollback: Rollback | undefined;
  readonly progress: RouteProgress | undefined;
  readonly approval: PendingApproval | undefined;
}

/**
 * The rollout state in force on this replica: immutable, made anew from the control document it
 * applied and its own file, and read once by each request.
 */
export interface RolloutSnapshot {
  readonly head: ControlHead;
  readonly doc: ControlDoc;
  /** the configuration in force, and its digest */
  readonly config: RolloutConfig;
  readonly digest: string;
  readonly killSwitch: boolean;
  readonly routes: readonly RouteSnapshot[];
  readonly local: LocalSource;
  /** the first route that serves an operation of a resource */
  routeFor(resource: string, operation: Operation): RouteSnapshot | undefined;
}

/** Whether the guard's rollback of a route is in force at `now`. */
export function rolledBackAt(route: RouteSnapshot | undefined, now: number): boolean {
  return route?.rollback !== undefined && now < route.rollback.until;
}

export const NO_HEAD: ControlHead = { epoch: '', version: 0, auditSeq: 0, from: null };

/** A configuration's text parsed with this replica's resources (memoized by the caller). */
export type ConfigParser = (text: string, digest: string) => { ok: true; config: RolloutConfig } | { ok: false; error: string };

function routesOf(config: RolloutConfig, doc: ControlDoc, local: LocalSource): RouteSnapshot[] {
  return config.routes.map((route) => {
    const key = routeKey(route.resource, route.operations);
    const schedule = scheduleOfRoute(route);
    // a state made under another schedule (a document older than the file) is fitted to this one
    const stored = doc.progress[key];
    const progress = schedule && stored ? fitToSchedule(schedule, stored, stored.changedAt) : stored;
    const share = schedule ? shareOf(schedule, progress) : { native: route.native, shadow: route.shadow };
    const fleet = doc.rollbacks[key];
    const alone = local.rollbacks[key];
    const rollback =
      alone !== undefined && alone > (fleet?.until ?? 0) ? { until: alone, count: (fleet?.count ?? 0) + 1, at: alone, why: 'this replica alone' } : fleet;
    return { key, bucketKey: bucketKeyOf(doc, route), route, schedule, share, rollback, progress, approval: doc.approvals[key] };
  });
}

/**
 * The snapshot of a control document and a replica's own file: the fleet's configuration when the
 * document has one this replica can read (else the last it could, with the reason in
 * `local.lastError`), the operator's kill switch over the file's, each route with its state.
 */
export function snapshotOf(
  head: ControlHead,
  doc: ControlDoc,
  local: LocalSource,
  parse: ConfigParser,
  previous: RolloutSnapshot | undefined,
): { snapshot: RolloutSnapshot; refused: string | null } {
  // what this replica makes of the fleet's configuration is decided here, whatever `local` said before
  let config = local.file === undefined ? NO_ROLLOUT : local.config;
  let digest = local.digest;
  let refused: string | null = null;
  if (local.file !== undefined && doc.config) {
    const parsed = parse(doc.config.text, doc.config.digest);
    if (parsed.ok) {
      config = parsed.config;
      digest = doc.config.digest;
    } else {
      refused = `the fleet's configuration ${doc.config.digest} is refused here, the last good one stays in force: ${parsed.error}`;
      if (previous) {
        config = previous.config;
        digest = previous.digest;
      }
    }
  }
  const routes = routesOf(config, doc, local);
  const found = new Map<string, RouteSnapshot | undefined>();
  const snapshot: RolloutSnapshot = {
    head,
    doc,
    config,
    digest,
    killSwitch: doc.kill ? doc.kill.on : config.killSwitch,
    routes,
    local,
    routeFor(resource, operation) {
      const k = `${resource}|${operation}`;
      if (found.has(k)) return found.get(k);
      const route = routes.find((r) => (r.route.resource === '*' || r.route.resource === resource) && r.route.operations.includes(operation));
      found.set(k, route);
      return route;
    },
  };
  return { snapshot, refused };
}

/** A replica's snapshot before it read any control document: its own file, nothing else. */
export function firstSnapshot(local: LocalSource, parse: ConfigParser): RolloutSnapshot {
  return snapshotOf(NO_HEAD, EMPTY_DOC, local, parse, undefined).snapshot;
}
