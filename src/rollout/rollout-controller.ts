import { createHash } from 'node:crypto';
import { type FSWatcher, readFileSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import {
  DEFAULT_ANALYSIS,
  type GuardConfig,
  type KnownRoutes,
  NO_ROLLOUT,
  type Operation,
  type RolloutConfig,
  type RolloutRoute,
  parseRollout,
} from './rollout-config.js';
import {
  type AnalysisCounters,
  type FleetCounters,
  type FleetState,
  type FleetStore,
  type GuardTally,
  type Lease,
  NO_FLEET_STATE,
} from '../stores/fleet-state.js';
import { ProgressRunner } from './progress-runner.js';
import { RouteGuard } from './rollout-guard.js';
import {
  commandProgress,
  type ProgressAction,
  type IntervalResult,
  type ProgressEvent,
  type RouteProgress,
  type Schedule,
  scheduleOf,
  shareOf,
  startProgress,
} from './route-progress.js';
import { bucketOf, inNativeShare, stickyKeyOf } from './sticky-bucket.js';

export type Backend = 'translate' | 'native';

export interface RouteState {
  route: RolloutRoute;
  /** `resource|op,op`: stable across reloads, so a route keeps its guard and counts */
  key: string;
  guard: RouteGuard;
  served: Record<Backend, number>;
  /** a progressive route's steps and analysis */
  schedule: Schedule | undefined;
  /** the shares it serves with now: the file's, or its progressive state's */
  share: { native: number; shadow: number };
}

/** A state change or step of a progressive route as the webhook gets it (steps counted from 1). */
export interface ProgressNotice {
  type: 'rollout.progress';
  route: { resource: string; operations: string[] };
  from: { state: string; step: number };
  to: { state: string; step: number };
  steps: number;
  reason: string;
  by: string;
  at: string;
  figures: Record<string, unknown> | null;
}

/** An interval's figures as shown: steps counted from 1, times as ISO text. */
function intervalView(r: IntervalResult): Record<string, unknown> {
  return { ...r, step: r.step + 1, endedAt: new Date(r.endedAt).toISOString() };
}

/** An operator's transition that cannot be made: the route is unknown, not progressive, or not in a state that allows it. */
export class ProgressCommandError extends Error {
  override readonly name = 'ProgressCommandError';
  constructor(
    readonly kind: 'unknown-route' | 'refused',
    message: string,
  ) {
    super(message);
  }
}

export interface Decision {
  backend: Backend;
  route: RouteState | undefined;
  why: 'no-native-backend' | 'no-rollout' | 'kill-switch' | 'override' | 'page-token' | 'no-route' | 'guard' | 'bucket';
}

export interface RolloutEvents {
  info(message: string): void;
  error(message: string): void;
  rollback(resource: string): void;
  reload(result: 'ok' | 'error'): void;
  /** a progressive route changed state or step (made by this replica): the notice sent to the webhook */
  progress(route: RolloutRoute, notice: ProgressNotice): void;
}

type Headers = Record<string, string | string[] | undefined>;

// how often a replica sends its guard counts and judges the fleet's window
const FLUSH_MS = 250;

const DEFAULT_GUARD: GuardConfig = { windowSeconds: 30, minRequests: 20, maxErrorRate: 0.05, cooldownSeconds: 60 };

/** A rollout file that cannot be used at start: the process does not start on it. */
export class RolloutFileError extends Error {
  override readonly name = 'RolloutFileError';
}

/**
 * The rollout in force: which side serves each v2 request. It holds the last good configuration of
 * the rollout file (reloaded when the file changes, on SIGHUP and on demand; a bad file is refused
 * and reported), the kill switch, each route's guard and counts.
 */
export class RolloutController {
  private config: RolloutConfig = NO_ROLLOUT;
  private states: RouteState[] = [];
  private readonly byKey = new Map<string, RouteState>();
  private loadedAt: number | undefined;
  private lastError: string | null = null;
  private killOverride: boolean | undefined;
  private watcher: FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private readonly onHup = () => this.reload();
  // the fleet (REDIS_URL): the state this replica last applied, and when it last confirmed it
  private fleet: FleetStore | undefined;
  private fleetState: FleetState = NO_FLEET_STATE;
  private confirmedAt: number | undefined;
  // the digest of the rollout file in force here
  private digest = '';
  private syncing: Promise<void> | undefined;
  private poll: NodeJS.Timeout | undefined;
  // the guard's counts for the fleet: gathered per route here, sent and judged every FLUSH_MS
  private counters: FleetCounters | undefined;
  private pending = new Map<string, { state: RouteState; tally: GuardTally }>();
  private flushing: NodeJS.Timeout | undefined;
  // the progressive routes' state (the fleet's with REDIS_URL, else this replica's) and who runs their analysis
  private readonly progress = new Map<string, RouteProgress>();
  private runner: ProgressRunner | undefined;
  private progressStore: 'memory' | 'redis' | undefined;

  /**
   * Starts on the rollout file, which must be there and valid (`RolloutFileError` otherwise: a
   * process never starts on a configuration other than the one it was given); later reloads keep the
   * last good one. `known`: the resources routes may name.
   */
  constructor(
    private readonly opts: { file: string | undefined; nativeBackend: string | undefined; now: () => number; events: RolloutEvents; known?: KnownRoutes },
  ) {
    if (!opts.file) {
      this.apply(NO_ROLLOUT);
      return;
    }
    const first = this.read(opts.file);
    if (!first.ok) throw new RolloutFileError(first.error);
    this.reload();
  }

  /** Rereads the rollout file; a bad one leaves the last good configuration in force. */
  reload(): { ok: boolean; error: string | null } {
    const file = this.opts.file;
    if (!file) return { ok: true, error: null };
    const parsed = this.read(file);
    if (!parsed.ok) return this.refuse(parsed.error);
    if (parsed.config.killSwitch !== this.config.killSwitch) {
      // the file's kill switch changed: an operator's kill or resume gives way to it, on every replica
      this.killOverride = undefined;
      this.fleet?.change({ kind: 'kill', kill: '' }).then(
        ({ state }) => this.applyFleet(state),
        () => undefined,
      );
    }
    this.apply(parsed.config);
    this.digest = parsed.digest;
    // the fleet's version moves with each configuration a replica loads (all replicas following one file agree on it)
    this.fleet?.change({ kind: 'config', digest: parsed.digest }).then(
      ({ state }) => this.applyFleet(state),
      () => undefined,
    );
    this.lastError = null;
    this.loadedAt = this.opts.now();
    this.opts.events.reload('ok');
    this.opts.events.info(`rollout: loaded ${file} (${parsed.config.routes.length} routes, kill switch ${parsed.config.killSwitch ? 'on' : 'off'})`);
    return { ok: true, error: null };
  }

  private read(file: string): { ok: true; config: RolloutConfig; digest: string } | { ok: false; error: string } {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      return { ok: false, error: `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
    }
    const parsed = parseRollout(text, this.opts.known);
    return parsed.ok ? { ...parsed, digest: createHash('sha256').update(text).digest('hex').slice(0, 16) } : { ok: false, error: `${file}: ${parsed.error}` };
  }

  private refuse(error: string): { ok: false; error: string } {
    this.lastError = error;
    this.opts.events.reload('error');
    this.opts.events.error(`rollout: refused, the last good configuration stays in force: ${error}`);
    return { ok: false, error };
  }

  private apply(config: RolloutConfig): void {
    this.config = config;
    this.states = config.routes.map((route) => {
      const key = `${route.resource}|${route.operations.join(',')}`;
      const known = this.byKey.get(key);
      const schedule = route.steps ? scheduleOf(route.steps, route.analysis ?? DEFAULT_ANALYSIS, route.shadow) : undefined;
      const fresh = { guard: new RouteGuard(), served: { translate: 0, native: 0 } };
      const state: RouteState = { ...(known ?? fresh), route, key, schedule, share: { native: route.native, shadow: route.shadow } };
      this.byKey.set(key, state);
      return state;
    });
    this.applyFleet(this.fleetState);
    this.applyProgress();
  }

  /** Each progressive route's shares follow its state. */
  private applyProgress(): void {
    for (const s of this.states) if (s.schedule) s.share = shareOf(s.schedule, this.progress.get(s.key));
  }

  /**
   * Starts the progressive routes' analysis: counts go to `counters`, and the replica holding
   * `lease` judges the intervals (`store`: where their state lives, shown in the status).
   */
  runProgress(counters: AnalysisCounters, lease: Lease, holder: string, store: 'memory' | 'redis'): void {
    this.progressStore = store;
    this.runner = new ProgressRunner({
      now: this.opts.now,
      counters,
      lease,
      holder,
      routes: () => this.states.filter((s) => s.schedule).map((s) => ({ key: s.key, schedule: s.schedule as Schedule, progress: this.progress.get(s.key) })),
      write: (key, next) => this.writeProgress(key, next),
      changed: (key, events) => this.progressed(key, events),
      failed: (what, err) => this.opts.events.error(`rollout: progressive analysis: ${what} failed: ${(err as Error).message}`),
    });
    this.runner.start();
    if (store === 'memory' && this.states.some((s) => s.schedule))
      this.opts.events.info(
        "rollout: progressive routes run in this replica's memory (no REDIS_URL): one replica only, and their state starts afresh at a restart",
      );
  }

  /** Writes a route's next progressive state over the one it was made from; false when another writer came first. */
  private async writeProgress(key: string, next: RouteProgress): Promise<boolean> {
    if (this.fleet) {
      const { state, applied } = await this.fleet.change({ kind: 'progress', key, rev: next.rev, text: JSON.stringify(next) });
      this.confirmedAt = this.opts.now();
      this.applyFleet(state);
      return applied;
    }
    if ((this.progress.get(key)?.rev ?? 0) !== next.rev - 1) return false;
    this.progress.set(key, next);
    this.applyProgress();
    return true;
  }

  private progressed(key: string, events: ProgressEvent[]): void {
    const state = this.byKey.get(key);
    if (!state) return;
    for (const event of events) {
      const step = (n: number) => `step ${n + 1}/${state.schedule?.steps.length ?? 0}`;
      this.opts.events[event.to.state === 'aborted' ? 'error' : 'info'](
        `rollout: ${key} ${event.from.state} ${step(event.from.step)} → ${event.to.state} ${step(event.to.step)} (${event.reason})`,
      );
      this.opts.events.progress(state.route, {
        type: 'rollout.progress',
        route: { resource: state.route.resource, operations: state.route.operations },
        from: { state: event.from.state, step: event.from.step + 1 },
        to: { state: event.to.state, step: event.to.step + 1 },
        steps: state.schedule?.steps.length ?? 0,
        reason: event.reason,
        by: event.by,
        at: new Date(event.at).toISOString(),
        figures: event.figures ? intervalView(event.figures) : null,
      });
    }
  }

  /**
   * An operator's transition of a progressive route (`operations` in any order): made on the
   * state the fleet holds now, by `by`, with an optional `reason`.
   */
  async command(resource: string, operations: readonly string[], action: ProgressAction, by: string, reason: string): Promise<Record<string, unknown>> {
    const wanted = [...operations].sort().join(',');
    const state = this.states.find((s) => s.route.resource === resource && [...s.route.operations].sort().join(',') === wanted);
    if (!state) throw new ProgressCommandError('unknown-route', `no route ${resource} [${operations.join(', ')}] in the rollout file`);
    const schedule = state.schedule;
    if (!schedule) throw new ProgressCommandError('refused', `the route ${state.key} has a fixed native share, no steps`);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      if (this.fleet) await this.syncFleet();
      const now = this.opts.now();
      const current = this.progress.get(state.key) ?? { ...startProgress(schedule, now), rev: 0 };
      const made = commandProgress(schedule, current, action, now, by, reason);
      if (!made.ok) throw new ProgressCommandError('refused', made.reason);
      if (await this.writeProgress(state.key, made.transition.progress)) {
        this.progressed(state.key, made.transition.events);
        return this.routeStatus(state, now);
      }
    }
    throw new ProgressCommandError('refused', 'the route changed five times while this was being applied; try again');
  }

  /**
   * Joins the fleet: reads its state now (a restarted replica comes up with the fleet's kill switch
   * and rollbacks), then follows it: `announced` calls back with each new version, and a read every
   * `pollMs` catches what an announcement lost. Redis away: the last state applied stays in force.
   */
  async followFleet(store: FleetStore, pollMs: number, counters?: FleetCounters): Promise<void> {
    this.fleet = store;
    await this.syncFleet();
    if (this.digest !== '')
      await store.change({ kind: 'config', digest: this.digest }).then(
        ({ state }) => this.applyFleet(state),
        () => undefined,
      );
    this.poll = setInterval(() => void this.syncFleet(), pollMs);
    this.poll.unref();
    if (counters) {
      this.counters = counters;
      this.flushing = setInterval(() => void this.flushCounts(), FLUSH_MS);
      this.flushing.unref();
    }
  }

  /** One more native answer or compared read of a route, for the fleet's count (sent at the next flush). */
  private count(state: RouteState, kind: GuardTally['kind'], failed: boolean): void {
    const id = `${state.key}|${kind}`;
    let entry = this.pending.get(id);
    if (!entry) {
      entry = { state, tally: { route: state.key, generation: state.guard.rollbacks, kind, total: 0, failed: 0 } };
      this.pending.set(id, entry);
    }
    entry.tally.total += 1;
    if (failed) entry.tally.failed += 1;
  }

  /**
   * Sends what this replica counted and judges each route on the fleet's window: past the threshold
   * (with enough requests), the route rolls back for everyone. Redis away: the counts go to this
   * replica's own guard instead, which then decides alone.
   */
  async flushCounts(): Promise<void> {
    const counters = this.counters;
    if (!counters || this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const guard = this.config.guard ?? DEFAULT_GUARD;
    const now = this.opts.now();
    const bucketMs = Math.max(1_000, Math.ceil((guard.windowSeconds * 1000) / 30));
    let windows: GuardTally[];
    try {
      windows = await counters.tally(
        batch.map((b) => b.tally),
        { bucketMs, buckets: Math.ceil((guard.windowSeconds * 1000) / bucketMs), now },
      );
    } catch {
      for (const { state, tally } of batch) {
        for (let i = 0; i < tally.total; i += 1) {
          const failed = i < tally.failed;
          if (tally.kind === 'native' ? state.guard.record(guard, failed, now) : state.guard.recordDiff(guard, failed, now))
            this.tripped(state, guard, tally.kind);
        }
      }
      return;
    }
    windows.forEach((window, i) => {
      const { state } = batch[i] as { state: RouteState };
      const maxRate = window.kind === 'native' ? guard.maxErrorRate : guard.maxDiffRate;
      if (maxRate === undefined || state.guard.isRolledBack(now) || window.total < guard.minRequests) return;
      if (window.failed / window.total <= maxRate) return;
      state.guard.rollBack(guard, now);
      this.tripped(state, guard, window.kind);
    });
  }

  private tripped(state: RouteState, guard: GuardConfig, kind: GuardTally['kind']): void {
    this.rolledBack(
      state,
      guard,
      kind === 'native' ? `native error share above ${guard.maxErrorRate}` : `share of reads with a reported difference above ${guard.maxDiffRate}`,
    );
  }

  /** A version announced by a replica (or a reconnect, `undefined`): reads the state unless it is applied already. */
  announced(version: number | undefined): void {
    if (version === undefined || version > this.fleetState.version) void this.syncFleet();
  }

  /** Reads the fleet state and applies it; one read at a time, failures only make this replica stale. */
  syncFleet(): Promise<void> {
    const store = this.fleet;
    if (!store) return Promise.resolve();
    this.syncing ??= store
      .read()
      .then(async (read) => {
        let state = read;
        // Redis came back without the fleet state (no persistence): it gets the one this replica holds
        if (state.epoch === '' && this.fleetState.epoch !== '') {
          await store.seed(this.fleetState);
          state = await store.read();
        }
        // a state begun afresh (an admin call on an empty Redis) learns which file the fleet follows
        if (state.digest === '' && this.digest !== '') state = (await store.change({ kind: 'config', digest: this.digest })).state;
        this.confirmedAt = this.opts.now();
        this.applyFleet(state);
      })
      .catch(() => undefined)
      .finally(() => {
        this.syncing = undefined;
      });
    return this.syncing;
  }

  private applyFleet(state: FleetState): void {
    // an older answer of the same epoch (a read that crossed a change) is not applied
    if (state.epoch === this.fleetState.epoch && state.version < this.fleetState.version) return;
    this.fleetState = state;
    if (this.fleet) this.killOverride = state.kill === '' ? undefined : state.kill === 'on';
    for (const route of this.states) {
      const r = state.rollbacks[route.key];
      if (!r) continue;
      route.guard.rolledBackUntil = Math.max(route.guard.rolledBackUntil, r.until);
      route.guard.rollbacks = Math.max(route.guard.rollbacks, r.count);
    }
    if (!this.fleet) return;
    for (const [key, { rev, text }] of Object.entries(state.progress)) {
      if ((this.progress.get(key)?.rev ?? -1) === rev) continue;
      try {
        this.progress.set(key, JSON.parse(text) as RouteProgress);
      } catch {
        this.opts.events.error(`rollout: the fleet's state of ${key} is not JSON; it is left as it was`);
      }
    }
    this.applyProgress();
  }

  /** The progressive routes now (for the metrics). */
  progressiveRoutes(): { resource: string; operations: string; state: string; step: number; native: number }[] {
    return this.states
      .filter((s) => s.schedule)
      .map((s) => {
        const p = this.progress.get(s.key);
        return {
          resource: s.route.resource,
          operations: s.route.operations.join(','),
          state: p?.state ?? 'shadowing',
          step: (p?.step ?? 0) + 1,
          native: s.share.native,
        };
      });
  }

  /** The routes rolled back now (for the metrics). */
  rolledBackRoutes(): { resource: string; operations: string }[] {
    const now = this.opts.now();
    return this.states.filter((s) => s.guard.isRolledBack(now)).map((s) => ({ resource: s.route.resource, operations: s.route.operations.join(',') }));
  }

  /** The fleet version this replica applied, and how long since it last confirmed it (undefined: no fleet, or never). */
  fleetStatus(): { version: number; staleSeconds: number | undefined; synced: boolean; digest: string; fleetDigest: string } | undefined {
    if (!this.fleet) return undefined;
    const at = this.confirmedAt;
    return {
      version: this.fleetState.version,
      staleSeconds: at === undefined ? undefined : (this.opts.now() - at) / 1000,
      synced: at !== undefined,
      // the file this replica follows, and the one a replica loaded last: a difference says the copies differ
      digest: this.digest,
      fleetDigest: this.fleetState.digest,
    };
  }

  /** Starts following the file: changes (debounced) and SIGHUP reload it. */
  watch(): void {
    const file = this.opts.file;
    if (!file || this.watcher) return;
    process.on('SIGHUP', this.onHup);
    try {
      // the directory, not the file: editors replace the file by renaming, and a Kubernetes config
      // map swaps its `..data` symlink (the file is a link through it, and itself never changes)
      this.watcher = watch(dirname(file), (_event, name) => {
        if (name !== null && name !== basename(file) && !name.startsWith('..')) return;
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => this.reload(), 50);
      });
      this.watcher.on('error', (err) => this.opts.events.error(`rollout: watching ${file} failed: ${err.message}`));
    } catch (err) {
      this.opts.events.error(`rollout: cannot watch ${file}: ${(err as Error).message}; SIGHUP and POST /admin/rollout/reload still reload it`);
    }
  }

  stop(): void {
    this.runner?.stop();
    clearInterval(this.poll);
    clearInterval(this.flushing);
    process.off('SIGHUP', this.onHup);
    clearTimeout(this.debounce);
    this.watcher?.close();
    this.watcher = undefined;
  }

  get killSwitch(): boolean {
    return this.killOverride ?? this.config.killSwitch;
  }

  /** The operator's kill switch; with a fleet, for every replica (STATE_STORE_UNAVAILABLE when Redis cannot take it: never applied here alone). */
  async setKillSwitch(on: boolean, reason = ''): Promise<void> {
    if (this.fleet) {
      const { state } = await this.fleet.change({ kind: 'kill', kill: on ? 'on' : 'off' });
      this.confirmedAt = this.opts.now();
      this.applyFleet(state);
    } else this.killOverride = on;
    this.opts.events.info(`rollout: kill switch ${on ? 'on: every v2 request is translated' : 'off'} (by admin${reason === '' ? '' : `: ${reason}`})`);
  }

  private routeFor(resource: string, operation: Operation): RouteState | undefined {
    return this.states.find((s) => (s.route.resource === '*' || s.route.resource === resource) && s.route.operations.includes(operation));
  }

  /**
   * Which side serves a request. `issuedHere`: for a list continued with a page token, whether this
   * proxy issued it (asked only when it matters); a walk stays on the side that issued its token, and
   * a token from elsewhere (another secret, garbage) goes native only on a route with a native share.
   */
  decide(resource: string, operation: Operation, headers: Headers, issuedHere?: () => boolean): Decision {
    const route = this.routeFor(resource, operation);
    const pick = (backend: Backend, why: Decision['why']): Decision => {
      if (route) route.served[backend] += 1;
      return { backend, route, why };
    };
    if (!this.opts.nativeBackend) return pick('translate', 'no-native-backend');
    // without a rollout file every v2 request is translated, whatever its page token
    if (!this.opts.file) return pick('translate', 'no-rollout');
    if (this.killSwitch) return pick('translate', 'kill-switch');
    const forced = headers['x-v2proxy-backend'];
    if (this.config.allowOverride && (forced === 'translate' || forced === 'native')) return pick(forced, 'override');
    // a walk stays on the side that issued its token; a token this proxy did not issue goes native
    // only where the route sends walks there at all, else translation refuses it (400)
    if (issuedHere) return pick(!issuedHere() && route !== undefined && route.share.native > 0 ? 'native' : 'translate', 'page-token');
    if (!route) return { backend: 'translate', route, why: 'no-route' };
    if (route.guard.isRolledBack(this.opts.now())) return pick('translate', 'guard');
    const bucket = bucketOf(this.config.salt, route.key, stickyKeyOf(this.config.stickyBy, headers));
    return pick(inNativeShare(bucket, route.share.native) ? 'native' : 'translate', 'bucket');
  }

  /** A request a progressive route served (`failed`: 5xx or no answer), for its analysis. */
  recordServed(route: RouteState | undefined, side: Backend, failed: boolean, seconds: number): void {
    if (!route?.schedule || !this.runner) return;
    this.runner.served({ key: route.key, schedule: route.schedule, progress: this.progress.get(route.key) }, side, failed, seconds * 1000);
  }

  /** A native answer on a route (5xx or no answer counts as failed); trips the guard when it should. */
  recordNative(route: RouteState | undefined, failed: boolean): void {
    if (!route) return;
    if (this.counters) this.count(route, 'native', failed);
    else if (route.guard.record(this.config.guard ?? DEFAULT_GUARD, failed, this.opts.now())) this.tripped(route, this.config.guard ?? DEFAULT_GUARD, 'native');
  }

  /** A compared shadow read on a route (with a reported difference or not): the guard's second trigger. */
  recordDiff(route: RouteState | undefined, differed: boolean): void {
    if (!route) return;
    if (route.schedule && this.runner) this.runner.compared({ key: route.key, schedule: route.schedule, progress: this.progress.get(route.key) }, differed);
    if (this.counters) this.count(route, 'diff', differed);
    else if (route.guard.recordDiff(this.config.guard ?? DEFAULT_GUARD, differed, this.opts.now()))
      this.tripped(route, this.config.guard ?? DEFAULT_GUARD, 'diff');
  }

  private rolledBack(route: RouteState, guard: GuardConfig, why: string): void {
    const said = (whose: string) => {
      this.opts.events.rollback(route.route.resource);
      this.opts.events.error(`rollout: guard rolled ${route.key} back to translation${whose} for ${guard.cooldownSeconds} s (${why})`);
    };
    if (!this.fleet) {
      said('');
      return;
    }
    // for the whole fleet; logged and counted by the replica whose rollback took (another may have been first)
    const now = this.opts.now();
    this.fleet.change({ kind: 'rollback', key: route.key, until: route.guard.rolledBackUntil, now }).then(
      ({ state, applied }) => {
        this.applyFleet(state);
        if (applied) said(' on every replica');
      },
      () => said(' on this replica only (Redis is away)'),
    );
  }

  /** What `GET /admin/rollout` shows. */
  status(): Record<string, unknown> {
    const now = this.opts.now();
    return {
      file: this.opts.file ?? null,
      loadedAt: this.loadedAt === undefined ? null : new Date(this.loadedAt).toISOString(),
      lastError: this.lastError,
      nativeBackend: this.opts.nativeBackend ?? null,
      killSwitch: this.killSwitch,
      fleet: this.fleetStatus() ?? null,
      progressive: this.states.some((s) => s.schedule)
        ? {
            store: this.progressStore ?? null,
            note:
              this.progressStore === 'redis'
                ? 'one state per route for the whole fleet; the replica holding the lease judges the intervals'
                : "this replica's memory: one replica only, starting afresh at a restart",
          }
        : null,
      config: this.config,
      routes: this.states.map((s) => this.routeStatus(s, now)),
    };
  }

  private routeStatus(s: RouteState, now: number): Record<string, unknown> {
    const rolledBack = s.guard.isRolledBack(now);
    const p = this.progress.get(s.key);
    return {
      resource: s.route.resource,
      operations: s.route.operations,
      native: s.share.native,
      shadow: s.share.shadow,
      effectiveNative: this.killSwitch || rolledBack || !this.opts.nativeBackend ? 0 : s.share.native,
      rolledBack,
      rolledBackUntil: rolledBack ? new Date(s.guard.rolledBackUntil).toISOString() : null,
      rollbacks: s.guard.rollbacks,
      window: s.guard.window(),
      served: { ...s.served },
      progress: s.schedule
        ? {
            state: p?.state ?? 'shadowing',
            step: (p?.step ?? 0) + 1,
            steps: s.schedule.steps.length,
            stepStartedAt: p ? new Date(p.stepStartedAt).toISOString() : null,
            failures: p?.failures ?? 0,
            pausedBy: p?.pausedBy ?? null,
            reason: p?.reason ?? 'not started yet: the analysis starts the route at its first step',
            changedAt: p ? new Date(p.changedAt).toISOString() : null,
            lastAbort: p?.lastAbort
              ? {
                  reason: p.lastAbort.reason,
                  at: new Date(p.lastAbort.at).toISOString(),
                  figures: p.lastAbort.figures ? intervalView(p.lastAbort.figures) : null,
                }
              : null,
            intervals: (p?.history ?? []).map(intervalView),
          }
        : null,
    };
  }
}
