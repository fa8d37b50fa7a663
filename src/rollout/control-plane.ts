import { randomBytes } from 'node:crypto';
import { type CommandMark, type ControlHead, type ControlStore, type StoredControl, shouldReseed } from '../stores/control-store.js';
import type { AuditTrail } from './audit-trail.js';
import { type AuditRecord, type ControlDoc, EMPTY_DOC, parseControlDoc } from './control-document.js';
import { type ControlEvent, reduceControl } from './control-reducer.js';
import { type KnownRoutes, NO_ROLLOUT, parseRollout } from './rollout-config.js';
import type { FileRead } from './rollout-file-check.js';
import { type LocalSource, NO_HEAD, type RolloutSnapshot, snapshotOf } from './rollout-snapshot.js';

/**
 * A change refused: an unknown route, a transition its state does not allow, a state that is not
 * the one the command was decided on (`stale`), or a command key used before for another command.
 */
export class ControlRefusedError extends Error {
  override readonly name = 'ControlRefusedError';
  constructor(
    readonly kind: 'unknown-route' | 'refused' | 'stale' | 'key-reused' | 'file-refused',
    message: string,
  ) {
    super(message);
  }
}

/** The version of a control state as the status shows it and `If-Match` names it: `<epoch>.<version>` ('0' before the first). */
export function controlVersion(head: ControlHead): string {
  return head.epoch === '' ? '0' : `${head.epoch}.${head.version}`;
}

/** An operator's command: its id (from its Idempotency-Key, or random) and what it asked, for a repeat with the key. */
export interface Command {
  id: string;
  /** the request's hash: the same key with another request is refused */
  fingerprint: string;
  /** whether it carries a key (a repeat can find it) */
  keyed: boolean;
}

/** How a change is asked for: by whom (an operator's command), on which state (`If-Match`). */
export interface ChangeOptions {
  command?: Command | undefined;
  /** the control version the command was decided on: any other answers `stale` */
  ifMatch?: string | undefined;
}

/** What a command did, as its record keeps it for a repeat with its key. */
export interface CommandRecord {
  fingerprint: string;
  outcome: 'changed' | 'unchanged' | 'refused';
  /** a move that waits for a second operator (answered 202) */
  pending?: boolean;
  refusal?: { kind: ControlRefusedError['kind']; reason: string };
}

// how long a command's record is kept: a keyed one as long as an Idempotency-Key, another only
// while its writer may still ask what became of it
const KEYED_RECORD_MS = 24 * 60 * 60 * 1000;
const UNKEYED_RECORD_MS = 10 * 60 * 1000;

export interface ControlPlaneEvents {
  /** audit records of a change this replica wrote (logged, counted and sent to the webhook once, by it) */
  changed(records: readonly AuditRecord[], snapshot: RolloutSnapshot): void;
  /** the fleet's state was made again (a new epoch): from where, to what */
  reseeded(from: ControlHead, to: ControlHead): void;
  /** the fleet's configuration cannot be used here (this replica keeps its last good one) */
  refused(message: string): void;
  /** a newer state is in force here (its own change, or the fleet's): what follows the state looks at it now */
  applied?(snapshot: RolloutSnapshot): void;
}

export interface ChangeResult {
  /** whether a new state was written (`replayed`: a repeat of a keyed command, answered from its record) */
  kind: 'changed' | 'unchanged' | 'replayed';
  /** the move waits for a second operator's approval (asked for now, or before; a repeat: as the first said) */
  waiting: boolean;
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
    this.deps.events.applied?.(this.current);
    return 'applied';
  }

  /**
   * The replica's own file, read by an explicit act: kept as its own, and published to the fleet
   * when it differs (`actor`: file or an operator). A file read while the store cannot take it is
   * published once it can; an operator's reload is a command: answered "retry", it never applies.
   */
  async fileRead(read: FileRead, actor: string, opts: ChangeOptions = {}): Promise<ChangeResult> {
    if (!read.ok) {
      this.local = { ...this.local, lastError: read.error };
      this.current = this.derive();
      return { kind: 'unchanged', waiting: false, snapshot: this.current };
    }
    this.local = { ...this.local, config: read.config, digest: read.digest, loadedAt: this.deps.now(), lastError: null };
    this.current = this.derive();
    this.offer = undefined;
    const pending = { read, actor };
    if (opts.command === undefined) this.unpublished = pending;
    try {
      return await this.change({ type: 'publish-config', text: read.text, digest: read.digest, config: read.config, actor }, opts);
    } finally {
      if (this.unpublished === pending) this.unpublished = undefined;
    }
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

  /** The record of a keyed command made before (undefined: none); one made with another request is refused. */
  async recorded(command: Command | undefined): Promise<ChangeResult | undefined> {
    if (!command?.keyed) return undefined;
    const record = await this.deps.store.command(command.id);
    return record === null ? undefined : this.replayed(record, command);
  }

  /** A repeat of a command, answered as the first was: its outcome, on the state as it is now. */
  private replayed(text: string, command: Command | undefined): ChangeResult {
    let record: CommandRecord;
    try {
      record = JSON.parse(text) as CommandRecord;
    } catch {
      throw new ControlRefusedError('key-reused', 'the key belongs to a command whose record cannot be read; use a new key');
    }
    if (command && record.fingerprint !== command.fingerprint) {
      throw new ControlRefusedError('key-reused', 'the key was used for another command; use a new key for a new command');
    }
    if (record.outcome === 'refused' && record.refusal) throw new ControlRefusedError(record.refusal.kind, record.refusal.reason);
    return { kind: 'replayed', waiting: record.pending === true, snapshot: this.current };
  }

  /**
   * Makes a change: the reducer on the document held, written over its head; a lost race is made
   * again on the newer document. Throws ControlRefusedError for what the reducer refuses (or a
   * state that is not `ifMatch`), and the store's STATE_STORE_UNAVAILABLE when Redis cannot take it
   * (then it is in force nowhere, and never will be). A command is recorded with what it did, in
   * the step that does it: a repeat with its key is answered from the record, never applied twice.
   */
  async change(event: ControlEvent, opts: ChangeOptions = {}): Promise<ChangeResult> {
    const { store, trail, events } = this.deps;
    const { command, ifMatch } = opts;
    const mark = (record: Omit<CommandRecord, 'fingerprint'>): CommandMark => ({
      id: command?.id ?? randomBytes(12).toString('base64url'),
      record: JSON.stringify({ fingerprint: command?.fingerprint ?? '', ...record }),
      ttlMs: command?.keyed ? KEYED_RECORD_MS : UNKEYED_RECORD_MS,
    });
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      // the state this change is decided on (a sync may apply a newer one while this one waits on the store)
      const base = this.head;
      if (ifMatch !== undefined && ifMatch !== controlVersion(base)) {
        if (!(await this.newest(base))) continue;
        const reason = `it is ${controlVersion(base)}, not ${ifMatch}`;
        const replay = await this.settle(command, mark({ outcome: 'refused', refusal: { kind: 'stale', reason } }));
        if (replay) return replay;
        throw new ControlRefusedError('stale', reason);
      }
      const reduced = reduceControl(this.doc, event, { now: this.deps.now(), config: this.current.config, id: () => randomBytes(8).toString('hex') });
      if (reduced.kind !== 'changed') {
        // nothing to write, decided on this replica's copy: final only if that is the newest state
        // (a resume right after another replica's kill is no resume on a copy that missed the kill)
        if (!(await this.newest(base))) continue;
        if (reduced.kind === 'refused') {
          const replay = await this.settle(command, mark({ outcome: 'refused', refusal: { kind: reduced.error, reason: reduced.reason } }));
          if (replay) return replay;
          throw new ControlRefusedError(reduced.error, reduced.reason);
        }
        const replay = await this.settle(command, mark({ outcome: 'unchanged', ...(reduced.pending ? { pending: true } : {}) }));
        return replay ?? { kind: 'unchanged', waiting: reduced.pending !== undefined, snapshot: this.current };
      }
      const expected = base.epoch === '' ? null : base;
      // written over `expected` or not at all: the records' places follow the trail's length there
      const records = reduced.audit.map((r, i) => ({ ...r, seq: (expected?.auditSeq ?? 0) + i + 1 }));
      const written = await store.write(
        expected,
        JSON.stringify(reduced.doc),
        records.map((r) => JSON.stringify(r)),
        newEpoch(),
        mark({ outcome: 'changed', ...(reduced.pending ? { pending: true } : {}) }),
      );
      if (written.ok) {
        this.apply(written.stored);
        await trail.catchUp(written.stored.head).catch(() => undefined);
        if (records.length > 0) events.changed(records, this.current);
        return { kind: 'changed', waiting: reduced.pending !== undefined, snapshot: this.current };
      }
      if (written.recorded !== undefined) return this.replayed(written.recorded, command);
      if (this.apply(written.stored) === 'reseed') await this.reseed();
    }
    throw new ControlRefusedError('refused', `the control state kept changing while this was being applied (${ATTEMPTS} attempts); try again`);
  }

  /**
   * A command refused before it reached the control state (a rollout file that cannot be used):
   * thrown, and for a keyed one recorded, so its repeat is refused alike (or answered as a repeat
   * recorded meanwhile was).
   */
  async refuse(command: Command | undefined, kind: ControlRefusedError['kind'], reason: string): Promise<ChangeResult> {
    const mark: CommandMark = {
      id: command?.id ?? '',
      record: JSON.stringify({ fingerprint: command?.fingerprint ?? '', outcome: 'refused', refusal: { kind, reason } } satisfies CommandRecord),
      ttlMs: KEYED_RECORD_MS,
    };
    const replay = await this.settle(command, mark);
    if (replay) return replay;
    throw new ControlRefusedError(kind, reason);
  }

  /** A keyed command that wrote nothing is recorded as such; the repeat of one recorded meanwhile is answered from it. */
  private async settle(command: Command | undefined, mark: CommandMark): Promise<ChangeResult | undefined> {
    if (!command?.keyed) return undefined;
    const there = await this.deps.store.recordCommand(mark);
    return there === null ? undefined : this.replayed(there, command);
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
