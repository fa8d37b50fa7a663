import { createHash } from 'node:crypto';
import { type FSWatcher, readFileSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { type GuardConfig, type KnownRoutes, NO_ROLLOUT, type Operation, type RolloutConfig, type RolloutRoute, parseRollout } from './rollout-config.js';
import { type FleetCounters, type FleetState, type FleetStore, type GuardTally, NO_FLEET_STATE } from '../stores/fleet-state.js';
import { RouteGuard } from './rollout-guard.js';
import { bucketOf, inNativeShare, stickyKeyOf } from './sticky-bucket.js';

export type Backend = 'translate' | 'native';

export interface RouteState {
  route: RolloutRoute;
  /** `resource|op,op`: stable across reloads, so a route keeps its guard and counts */
  key: string;
  guard: RouteGuard;
  served: Record<Backend, number>;
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
      const state = known ? { ...known, route } : { route, key, guard: new RouteGuard(), served: { translate: 0, native: 0 } };
      this.byKey.set(key, state);
      return state;
    });
    this.applyFleet(this.fleetState);
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
  async setKillSwitch(on: boolean): Promise<void> {
    if (this.fleet) {
      const { state } = await this.fleet.change({ kind: 'kill', kill: on ? 'on' : 'off' });
      this.confirmedAt = this.opts.now();
      this.applyFleet(state);
    } else this.killOverride = on;
    this.opts.events.info(`rollout: kill switch ${on ? 'on: every v2 request is translated' : 'off'}`);
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
    if (issuedHere) return pick(!issuedHere() && route !== undefined && route.route.native > 0 ? 'native' : 'translate', 'page-token');
    if (!route) return { backend: 'translate', route, why: 'no-route' };
    if (route.guard.isRolledBack(this.opts.now())) return pick('translate', 'guard');
    const bucket = bucketOf(this.config.salt, route.key, stickyKeyOf(this.config.stickyBy, headers));
    return pick(inNativeShare(bucket, route.route.native) ? 'native' : 'translate', 'bucket');
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
      config: this.config,
      routes: this.states.map((s) => {
        const rolledBack = s.guard.isRolledBack(now);
        return {
          resource: s.route.resource,
          operations: s.route.operations,
          native: s.route.native,
          effectiveNative: this.killSwitch || rolledBack || !this.opts.nativeBackend ? 0 : s.route.native,
          rolledBack,
          rolledBackUntil: rolledBack ? new Date(s.guard.rolledBackUntil).toISOString() : null,
          rollbacks: s.guard.rollbacks,
          window: s.guard.window(),
          served: { ...s.served },
        };
      }),
    };
  }
}
