import type { ControlHead } from '../stores/control-store.js';
import type { AuditTrail } from './audit-trail.js';
import type { ControlPlane } from './control-plane.js';

export interface FleetSyncStatus {
  epoch: string;
  version: number;
  /** seconds since this replica last heard from the store (undefined: never) */
  staleSeconds: number | undefined;
  synced: boolean;
  /** no answer for longer than the stale threshold */
  stale: boolean;
}

/**
 * Follows the fleet's control state: reads its head every `pollMs` and at each announcement (pub/sub
 * drops messages while disconnected, so the poll is the guarantee), applies a newer state, re-seeds
 * a lost one, and keeps the audit copy up. A store that stops answering (down, or stalled with its
 * connection open) makes this replica stale: said once when it turns stale and once when it recovers;
 * meanwhile it keeps the state it applied.
 */
export class FleetSync {
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private confirmedAt: number | undefined;
  private stale = false;
  private again = false;
  private startedAt = 0;

  constructor(
    private readonly deps: {
      control: ControlPlane;
      trail: AuditTrail;
      now(): number;
      pollMs: number;
      staleAfterMs: number;
      log: { warn(message: string): void; info(message: string): void };
    },
  ) {}

  start(): void {
    this.startedAt = this.deps.now();
    this.timer ??= setInterval(() => {
      this.checkStale();
      void this.sync();
    }, this.deps.pollMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** An announcement (`epoch:version`), or a reconnect (undefined): reads the state unless it is applied already. */
  announced(message: string | undefined): void {
    const head = this.deps.control.snapshot.head;
    if (message === `${head.epoch}:${head.version}`) return;
    void this.sync();
  }

  private checkStale(): void {
    const { now, staleAfterMs, log } = this.deps;
    const since = this.confirmedAt ?? this.startedAt;
    if (this.stale || now() - since <= staleAfterMs) return;
    this.stale = true;
    const head = this.deps.control.snapshot.head;
    log.warn(
      `fleet: Redis has not answered for ${Math.round((now() - since) / 100) / 10} s${this.confirmedAt === undefined ? ' (since the start)' : ''}: this replica is stale, serving on the control state it applied (version ${head.version})`,
    );
  }

  /** Reads the store's head and follows it; one read at a time (a call meanwhile runs once more after it). */
  sync(): Promise<void> {
    if (this.syncing) {
      this.again = true;
      return this.syncing;
    }
    this.syncing = this.round()
      .catch(() => undefined)
      .finally(() => {
        this.syncing = undefined;
        if (this.again) {
          this.again = false;
          void this.sync();
        }
      });
    return this.syncing;
  }

  private async round(): Promise<void> {
    const { control, trail, now, log } = this.deps;
    const store = control.store;
    const head = await store.head();
    const wasStale = this.stale;
    const staleFor = this.confirmedAt === undefined ? undefined : now() - this.confirmedAt;
    this.confirmedAt = now();
    this.stale = false;
    if (wasStale)
      log.info(`fleet: Redis answers again${staleFor === undefined ? '' : ` after ${Math.round(staleFor / 100) / 10} s`}; following the control state`);
    const mine = control.snapshot.head;
    if (!same(head, mine)) {
      const outcome = head === null ? control.apply(null) : control.apply(await store.read());
      if (outcome === 'reseed') await control.reseed();
    }
    await control.publishPending();
    const applied = control.snapshot.head;
    if (applied.epoch !== '') await trail.catchUp(applied);
  }

  status(): FleetSyncStatus {
    const head = this.deps.control.snapshot.head;
    const at = this.confirmedAt;
    return {
      epoch: head.epoch,
      version: head.version,
      staleSeconds: at === undefined ? undefined : (this.deps.now() - at) / 1000,
      synced: at !== undefined,
      stale: this.stale,
    };
  }
}

function same(a: ControlHead | null, b: ControlHead): boolean {
  return a !== null && a.epoch === b.epoch && a.version === b.version;
}
