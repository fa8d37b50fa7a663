import { memoryRolloutStores, type RolloutStores } from '../stores/rollout-stores.js';
import { AuditTrail } from './audit-trail.js';
import type { AuditRecord } from './control-document.js';
import { type ChangeOptions, type ChangeResult, ControlPlane } from './control-plane.js';
import { FleetSync, type FleetSyncStatus } from './fleet-sync.js';
import { GuardAccountant } from './guard-accountant.js';
import { OverrideSecret } from './override-secret.js';
import { ProgressRunner } from './progress-runner.js';
import type { KnownRoutes } from './rollout-config.js';
import type { FileRead } from './rollout-file-check.js';
import { DEFAULT_FILE_BOUNDS, RolloutFileReader } from './rollout-file-reader.js';
import { RolloutFileError, watchRolloutFile } from './rollout-file-source.js';
import type { RolloutSnapshot, RouteSnapshot } from './rollout-snapshot.js';
import { FleetTraffic, type TrafficRow } from './fleet-traffic.js';
import { rolloutStatus } from './rollout-status.js';
import { RolloutTraffic } from './rollout-traffic.js';

// the topic of the control state: its messages are `epoch:version`
export const CONTROL_TOPIC = 'v2proxy:control-state';
// how often a replica reads the control state's head anyway (an announcement may be lost)
const FLEET_POLL_MS = 500;
// no answer from Redis for longer than this: the replica is stale (said once)
const STALE_AFTER_MS = 3_000;
// how often a replica sends its guard counts and judges the fleet's window
const GUARD_FLUSH_MS = 250;

export interface RolloutEvents {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** a change this replica made, one audit record each (logged here already) */
  changed(records: readonly AuditRecord[], snapshot: RolloutSnapshot): void;
  /** a route the guard rolled back on this replica's count */
  rollback(route: RouteSnapshot): void;
  reload(result: 'ok' | 'error'): void;
  /** a newer control state is in force here */
  applied?(snapshot: RolloutSnapshot): void;
}

export interface RolloutOptions {
  file: string | undefined;
  /** the file as read already (its check at start) */
  first?: FileRead | undefined;
  /** what reads the file (default: a reader of its own, with the default bounds, closed by `stop`) */
  reader?: RolloutFileReader | undefined;
  known: KnownRoutes;
  nativeBackend: string | undefined;
  overrideSecret: string | undefined;
  now(): number;
  /** where its state and counts are kept (default: this replica's memory) */
  stores?: RolloutStores | undefined;
  events: RolloutEvents;
}

/** The rollout of one replica, assembled: its snapshot and what feeds it, and what the pipeline and the admin API use. */
export interface Rollout {
  control: ControlPlane;
  traffic: RolloutTraffic;
  trail: AuditTrail;
  /** with REDIS_URL */
  sync: FleetSync | undefined;
  /**
   * Rereads the rollout file (an explicit act by `actor`) and publishes it when it changed. An
   * operator's reload is a command (`opts`): a file that cannot be used throws ControlRefusedError
   * ('file-refused'), recorded for a repeat with its key.
   */
  reload(actor: string, opts?: ChangeOptions): Promise<ChangeResult | { kind: 'refused'; error: string }>;
  status(): Record<string, unknown>;
  /** every known resource's operations with their route, shares, and what each side served in the fleet's last minutes */
  fleetTraffic(): Promise<TrafficRow[]>;
  fleetStatus(): FleetSyncStatus | undefined;
  watch(): void;
  /** Stops following the file and the fleet, and sends the counts not yet sent (what cannot be is said lost, in one line). */
  close(): Promise<void>;
}

const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function logLine(r: AuditRecord): { level: 'info' | 'error'; text: string } {
  const route = r.route ? ` ${r.route.resource} [${r.route.operations.join(', ')}]` : '';
  const change = r.after && 'state' in r.after ? ` → ${String(r.after.state)} step ${String(r.after.step)}` : '';
  const bad = r.action === 'guard.rollback' || (r.action === 'route.abort' && r.actor === 'analysis');
  return { level: bad ? 'error' : 'info', text: `rollout: ${r.action}${route}${change} by ${r.actor}${r.reason === '' ? '' : ` (${r.reason})`}` };
}

/** The control plane of a replica: its snapshot, changed by the reducer only, each change logged. */
function newControl(opts: RolloutOptions, store: RolloutStores['control'], trail: AuditTrail): ControlPlane {
  const { events, now } = opts;
  return new ControlPlane(
    {
      store,
      trail,
      now,
      known: opts.known,
      events: {
        changed: (records, snapshot) => {
          for (const r of records) {
            const line = logLine(r);
            events[line.level](line.text);
          }
          events.changed(records, snapshot);
        },
        reseeded: (from, to) =>
          events.warn(`fleet: Redis had lost the control state; re-seeded from this replica (epoch ${from.epoch} version ${from.version} → epoch ${to.epoch})`),
        refused: (message) => events.error(`rollout: ${message}`),
        applied: (snapshot) => events.applied?.(snapshot),
      },
    },
    opts.file,
  );
}

/** The progressive analysis: counts of each interval, judged by whichever replica holds the lease. */
function newRunner(control: ControlPlane, stores: RolloutStores, now: () => number, events: RolloutEvents): ProgressRunner {
  const fleet = stores.fleet;
  return new ProgressRunner({
    now,
    counters: stores.analysis,
    lease: stores.lease,
    holder: fleet?.holder ?? 'this replica',
    routes: () =>
      control.snapshot.routes
        .filter((r) => r.schedule)
        .map((r) => ({ key: r.key, schedule: r.schedule as NonNullable<typeof r.schedule>, progress: r.progress })),
    start: async (key) => {
      await control.change({ type: 'progress-start', key });
    },
    judged: async (key, stage, interval) => {
      await control.change({ type: 'interval', key, stage, ...interval });
      return control.snapshot.routes.find((r) => r.key === key)?.progress;
    },
    failed: (what, err) => events.error(`rollout: progressive analysis: ${what} failed: ${(err as Error).message}`),
  });
}

/** An explicit reread of the rollout file: published when it changed; one that cannot be used is refused, the last good one staying. */
function fileReload(opts: RolloutOptions, control: ControlPlane, reader: RolloutFileReader): Rollout['reload'] {
  const { events } = opts;
  return async (actor: string, command?: ChangeOptions): Promise<ChangeResult | { kind: 'refused'; error: string }> => {
    if (!opts.file) return { kind: 'unchanged', waiting: false, snapshot: control.snapshot };
    const read: FileRead = await reader.read(opts.file, opts.known);
    if (!read.ok) {
      await control.fileRead(read, actor);
      events.reload('error');
      events.error(`rollout: refused, the last good configuration stays in force: ${read.error}`);
      if (command) return control.refuse(command.command, 'file-refused', read.error);
      return { kind: 'refused', error: read.error };
    }
    const made = await control.fileRead(read, actor, command);
    events.reload('ok');
    events.info(
      `rollout: loaded ${opts.file} (${read.config.routes.length} routes, kill switch ${read.config.killSwitch ? 'on' : 'off'})${made.kind === 'unchanged' ? ': the fleet runs it already' : ''}`,
    );
    return made;
  };
}

/**
 * Starts the rollout on its file, which must be there and valid (RolloutFileError otherwise: a
 * process never starts on a configuration other than the one it was given). With a fleet, the
 * fleet's configuration is followed if it has one (this file is then only compared with it).
 */
export async function startRollout(opts: RolloutOptions): Promise<Rollout> {
  const { events, now } = opts;
  const ownReader = opts.reader ? undefined : new RolloutFileReader(DEFAULT_FILE_BOUNDS);
  const reader = opts.reader ?? (ownReader as RolloutFileReader);
  const first = opts.first ?? (opts.file ? await reader.read(opts.file, opts.known) : undefined);
  if (first && !first.ok) {
    await ownReader?.close();
    throw new RolloutFileError(first.error);
  }
  const stores = opts.stores ?? memoryRolloutStores(now);
  const { fleet, control: store } = stores;
  const trail = new AuditTrail(store);
  const control = newControl(opts, store, trail);
  const guard = new GuardAccountant({
    counters: stores.guard,
    alone: stores.alone,
    control,
    now,
    immediate: !fleet,
    flushMs: GUARD_FLUSH_MS,
    tripped: (route, why, alone) => {
      events.rollback(route);
      if (alone) events.error(`rollout: guard rolled ${route.key} back to translation on this replica only, Redis being away (${why})`);
    },
  });
  const runner = newRunner(control, stores, now, events);
  const fleetTraffic = new FleetTraffic({
    counters: stores.traffic,
    now,
    failed: (err) => events.error(`rollout: the fleet's traffic figures: sending them failed: ${(err as Error).message}`),
  });
  const traffic = new RolloutTraffic({
    control,
    guard,
    runner,
    fleetTraffic,
    nativeBackend: opts.nativeBackend !== undefined,
    overrideSecret: opts.overrideSecret ? new OverrideSecret(opts.overrideSecret) : undefined,
    now,
  });
  const sync = fleet
    ? new FleetSync({ control, trail, now: Date.now, pollMs: FLEET_POLL_MS, staleAfterMs: STALE_AFTER_MS, log: { warn: events.warn, info: events.info } })
    : undefined;

  // the start: this replica's file, published when the fleet runs none yet (a single replica: always)
  if (first?.ok) control.adopt(first);
  if (sync) {
    fleet?.news.on(CONTROL_TOPIC, (message) => sync.announced(message));
    fleet?.news.onReconnect(() => sync.announced(undefined));
    await sync.sync();
    sync.start();
  } else {
    await control.publishPending();
  }
  if (first?.ok && opts.overrideSecret === undefined && control.snapshot.config.allowOverride)
    events.warn('rollout: allowOverride is on but ROLLOUT_OVERRIDE_SECRET is not set: the override header is ignored');
  if (opts.nativeBackend === undefined && control.snapshot.routes.some((r) => r.share.native > 0 || r.schedule))
    events.warn('rollout: routes give the native side a share but V2_BASE_URL is not set: every request is translated');
  guard.start();
  runner.start();
  fleetTraffic.start();
  const progressiveStore = fleet ? 'redis' : 'memory';
  if (!fleet && control.snapshot.routes.some((r) => r.schedule))
    events.info("rollout: progressive routes run in this replica's memory (no REDIS_URL): one replica only, and their state starts afresh at a restart");

  let unwatch: (() => void) | undefined;
  const reload = fileReload(opts, control, reader);

  return {
    control,
    traffic,
    trail,
    sync,
    reload,
    fleetStatus: () => sync?.status(),
    fleetTraffic: () => fleetTraffic.rows(opts.known, control.snapshot, opts.nativeBackend !== undefined),
    status: () =>
      rolloutStatus(control.snapshot, {
        now: now(),
        nativeBackend: opts.nativeBackend,
        fleet: sync?.status(),
        progressiveStore,
        served: (key) => traffic.servedOn(key),
        window: (key) => guard.window(key),
      }),
    watch() {
      const file = opts.file;
      if (!file || unwatch) return;
      unwatch = watchRolloutFile(
        file,
        () =>
          reload('file').catch((err: unknown) =>
            events.warn(`rollout: ${file} was loaded here but cannot be published to the fleet yet (${(err as Error).message}); it is once Redis answers`),
          ),
        (message) => events.error(message),
      );
    },
    async close() {
      unwatch?.();
      unwatch = undefined;
      sync?.stop();
      // the counts of the last moments: sent now, or said lost
      const [guardLost, analysisLost, trafficLost] = await Promise.all([guard.close(), runner.close(), fleetTraffic.close()]);
      if (guardLost + analysisLost + trafficLost > 0)
        events.error(
          `rollout: shutting down, counts not yet sent to the fleet could not be sent and are lost: ${counted(guardLost, 'answer')} of the guard, ${counted(analysisLost, 'interval')} of the progressive analysis, ${counted(trafficLost, 'operation-minute')} of the traffic figures`,
        );
      await ownReader?.close();
    },
  };
}
