import { randomBytes } from 'node:crypto';
import { type ControlHead, type ControlStore, type StoredControl, shouldReseed } from '../stores/control-store.js';
import type { AuditTrail } from './audit-trail.js';
import { type AuditRecord, type ControlDoc, EMPTY_DOC, type PendingApproval, parseControlDoc } from './control-document.js';
import { type ControlEvent, reduceControl } from './control-reducer.js';
import { type KnownRoutes, NO_ROLLOUT, parseRollout } from './rollout-config.js';
import type { FileRead } from './rollout-file-check.js';
import { type LocalSource, NO_HEAD, type RolloutSnapshot, snapshotOf } from './rollout-snapshot.js';

/** A change the reducer refused: an unknown route, or a transition its state does not allow. */
export class ControlRefusedError extends Error {
  override readonly name = 'ControlRefusedError';
  constructor(
    readonly kind: 'unknown-route' | 'refused',
    message: string,
  ) {
    super(message);
  }
}

export interface ControlPlaneEvents {
  /** audit records of a change this replica wrote (logged, counted and sent to the webhook once, by it) */
  changed(records: readonly AuditRecord[], snapshot: RolloutSnapshot): void;
  /** the fleet's state was made again (a new epoch): from where, to what */
  reseeded(from: ControlHead, to: ControlHead): void;
  /** the fleet's configuration cannot be used here (this replica keeps its last good one) */
  refused(message: string): void;
}

export interface ChangeResult {
  /** whether a new state was written */
  kind: 'changed' | 'unchanged';
  /** the approval of a second operator this move waits for (asked for now, or before) */
  pending?: PendingApproval;
  snapshot: RolloutSnapshot;
}

// a change made again on a newer document at most this many times (other writers, a re-seed)
const ATTEMPTS = 8;
const newEpoch = () => randomBytes(6).toString('hex');

/**
 * Holds this replica's snapshot and makes every change of control state: the reducer applied to the
 * document this replica holds, written over its head (a write another replica beat is made again on
 * the newer document; a state Redis lost is re-seeded whole first). The rest only feed it events or
 * read its snapshot.
 */
export class ControlPlane {
  private head: ControlHead = NO_HEAD;
  private doc: ControlDoc = EMPTY_DOC;
  private local: LocalSource;
  private current: RolloutSnapshot;
  private readonly parsed = new Map<string, ReturnType<typeof parseRollout>>();
  private refusedDigest: string | undefined;
  // a file loaded while the store could not take it: published once it can
  private unpublished: { read: Extract<FileRead, { ok: true }>; actor: string } | undefined;
  // the file a replica started with: published only if the fleet runs none yet
  private offer: Extract<FileRead, { ok: true }> | undefined;

  constructor(
    private readonly deps: {
      store: ControlStore;
      trail: AuditTrail;
      now(): number;
      known?: KnownRoutes | undefined;
      events: ControlPlaneEvents;
    },
    /** ROLLOUT_FILE (undefined: none); the file it starts with comes by `adopt` */
    file: string | undefined,
  ) {
    this.local = {
      file,
      config: NO_ROLLOUT,
      digest: '',
      loadedAt: undefined,
      lastError: null,
      refused: null,
      rollbacks: {},
    };
    this.current = this.derive();
  }

  get snapshot(): RolloutSnapshot {
    return this.current;
  }

  get store(): ControlStore {
    return this.deps.store;
  }

  private parse = (text: string, digest: string) => {
    let result = this.parsed.get(digest);
    if (!result) {
      result = parseRollout(text, this.deps.known);
      // a handful of configurations at most are ever in play
      if (this.parsed.size > 16) this.parsed.clear();
      this.parsed.set(digest, result);
    }
    return result;
  };

  private derive(): RolloutSnapshot {
    const { snapshot, refused } = snapshotOf(this.head, this.doc, this.local, this.parse, this.current);
    if (refused && this.refusedDigest !== this.doc.config?.digest) {
      this.refusedDigest = this.doc.config?.digest;
      this.deps.events.refused(refused);
    }
    if (refused === this.local.refused) return snapshot;
    this.local = { ...this.local, refused };
    return { ...snapshot, local: this.local };
  }

  /** Applies a stored state: a newer one of this epoch, or another epoch's (a re-seed, a new fleet). 'reseed': this replica holds newer than what is stored. */
  apply(stored: StoredControl | null): 'applied' | 'same' | 'reseed' {
    if (shouldReseed(this.head, stored?.head ?? null)) return 'reseed';
    if (!stored) return 'same';
    const h = stored.head;
    if (h.epoch === this.head.epoch && h.version <= this.head.version) return 'same';
    this.head = h;
    this.doc = parseControlDoc(stored.text);
    this.current = this.derive();
    return 'applied';
  }

  /** The replica's own file, read by an explicit act: kept as its own, and published to the fleet when it differs (`actor`: file or an operator). */
  async fileRead(read: FileRead, actor: string): Promise<ChangeResult> {
    if (!read.ok) {
      this.local = { ...this.local, lastError: read.error };
      this.current = this.derive();
      return { kind: 'unchanged', snapshot: this.current };
    }
    this.local = { ...this.local, config: read.config, digest: read.digest, loadedAt: this.deps.now(), lastError: null };
    this.current = this.derive();
    this.offer = undefined;
    this.unpublished = { read, actor };
    const result = await this.change({ type: 'publish-config', text: read.text, digest: read.digest, config: read.config, actor });
    this.unpublished = undefined;
    return result;
  }

  /**
   * The file this replica starts with: its own from now on, and the fleet's only if the fleet runs
   * none yet (a replica that starts follows the fleet; its own file differing is drift, reported).
   */
  adopt(read: Extract<FileRead, { ok: true }>): void {
    this.local = { ...this.local, config: read.config, digest: read.digest, loadedAt: this.deps.now(), lastError: null };
    this.offer = read;
    this.current = this.derive();
  }

  /**
   * What waits for the store (called once it answers): the start's file when the fleet turns out to
   * run no configuration, and a file an explicit act loaded while the store could not take it.
   */
  async publishPending(): Promise<void> {
    const offer = this.offer;
    if (offer && this.head.epoch !== '' && this.doc.config !== null) this.offer = undefined;
    else if (offer) {
      await this.change({ type: 'publish-config', text: offer.text, digest: offer.digest, config: offer.config, actor: 'file' });
      this.offer = undefined;
    }
    const pending = this.unpublished;
    if (!pending) return;
    const { read, actor } = pending;
    await this.change({ type: 'publish-config', text: read.text, digest: read.digest, config: read.config, actor });
    if (this.unpublished === pending) this.unpublished = undefined;
  }

  /** Rolls a route back on this replica alone (the fleet's state cannot be written: Redis is away). */
  rollBackAlone(key: string, until: number): void {
    this.local = { ...this.local, rollbacks: { ...this.local.rollbacks, [key]: until } };
    this.current = this.derive();
  }

  /**
   * Makes a change: the reducer on the document held, written over its head; a lost race is made
   * again on the newer document. Throws ControlRefusedError for what the reducer refuses, and the
   * store's STATE_STORE_UNAVAILABLE when Redis cannot take it (then it is in force nowhere).
   */
  async change(event: ControlEvent): Promise<ChangeResult> {
    const { store, trail, events } = this.deps;
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      // the state this change is decided on (a sync may apply a newer one while this one waits on the store)
      const base = this.head;
      const reduced = reduceControl(this.doc, event, { now: this.deps.now(), config: this.current.config, id: () => randomBytes(8).toString('hex') });
      if (reduced.kind !== 'changed') {
        // nothing to write, decided on this replica's copy: final only if that is the newest state
        // (a resume right after another replica's kill is no resume on a copy that missed the kill)
        if (!(await this.newest(base))) continue;
        if (reduced.kind === 'refused') throw new ControlRefusedError(reduced.error, reduced.reason);
        return { kind: 'unchanged', snapshot: this.current, ...(reduced.pending ? { pending: reduced.pending } : {}) };
      }
      const expected = base.epoch === '' ? null : base;
      // written over `expected` or not at all: the records' places follow the trail's length there
      const records = reduced.audit.map((r, i) => ({ ...r, seq: (expected?.auditSeq ?? 0) + i + 1 }));
      const written = await store.write(
        expected,
        JSON.stringify(reduced.doc),
        records.map((r) => JSON.stringify(r)),
        newEpoch(),
      );
      if (written.ok) {
        this.apply(written.stored);
        await trail.catchUp(written.stored.head).catch(() => undefined);
        if (records.length > 0) events.changed(records, this.current);
        return { kind: 'changed', snapshot: this.current, ...(reduced.pending ? { pending: reduced.pending } : {}) };
      }
      if (this.apply(written.stored) === 'reseed') await this.reseed();
    }
    throw new ControlRefusedError('refused', `the control state kept changing while this was being applied (${ATTEMPTS} attempts); try again`);
  }

  /** Whether `base` is the store's newest state; if not, this replica applies the newest (or re-seeds a lost one). */
  private async newest(base: ControlHead): Promise<boolean> {
    const { store } = this.deps;
    const head = await store.head();
    if (head === null ? base.epoch === '' : head.epoch === base.epoch && head.version === base.version) return true;
    if (this.apply(head === null ? null : await store.read()) === 'reseed') await this.reseed();
    return false;
  }

  /** Seeds the fleet's lost state whole from this replica's copy (its document and audit trail), under a new epoch. */
  async reseed(): Promise<void> {
    const from = this.head;
    const record: AuditRecord = {
      id: randomBytes(8).toString('hex'),
      seq: 0,
      at: new Date(this.deps.now()).toISOString(),
      actor: 'fleet',
      action: 'fleet.reseeded',
      route: null,
      before: { epoch: from.epoch, version: from.version },
      after: null,
      reason: 'Redis lost the control state (a restart without persistence, FLUSHALL, a failover to a lagging replica): re-seeded from this replica',
      figures: null,
    };
    // the trail numbered afresh in the new epoch
    const texts = [...this.deps.trail.oldestFirst(), record].map((r, i) => JSON.stringify({ ...r, seq: i + 1 }));
    const seeded = await this.deps.store.seed(from, JSON.stringify(this.doc), texts, newEpoch());
    if (!seeded.stored) return;
    // this replica's seed, or a better one another replica made: followed either way
    const to = seeded.stored.head;
    this.head = NO_HEAD;
    this.apply(seeded.stored);
    await this.deps.trail.catchUp(to).catch(() => undefined);
    if (seeded.ok) this.deps.events.reseeded(from, to);
  }
}
