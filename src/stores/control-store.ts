/**
 * Where the rollout's control state lives: one document (opaque JSON text here; its shape and every
 * change of it belong to the rollout) under a head that says which state it is, and an audit trail.
 * Every write is made over the head it was computed from, so two writers never both win; the
 * memory store serves a single replica, Redis a fleet.
 */

/** The state a replica made its changes from, or last applied. */
export interface ControlHead {
  /** a new one each time the state is made afresh (a new fleet, or a Redis that lost its data) */
  epoch: string;
  /** grows by one with each change within an epoch */
  version: number;
  /** audit records written in this epoch so far */
  auditSeq: number;
  /** for a state re-seeded after a loss: the state it was seeded from (null: made afresh) */
  from: { epoch: string; version: number } | null;
}

export interface StoredControl {
  head: ControlHead;
  /** the control document, as JSON */
  text: string;
}

/**
 * `ok`: written, `stored` is the new state. Otherwise `stored` is what is there now (null: nothing,
 * the state was lost), and `recorded` the record of its command when an earlier request with the
 * command's key made it (nothing was written).
 */
export type ControlWrite = { ok: true; stored: StoredControl } | { ok: false; stored: StoredControl | null; recorded?: string | undefined };

/**
 * The command a write carries: recorded under its id in the same atomic step as the write (or not
 * at all), so a repeat of a keyed command finds what it did, and a write whose answer was lost can
 * be told apart from one that never landed. Every write carries one (a random id for a write that
 * is no operator's command).
 */
export interface CommandMark {
  id: string;
  /** what the command did, as the repeat is answered (opaque JSON) */
  record: string;
  /** how long the record is kept, ms */
  ttlMs: number;
}

/** how many audit records a store keeps */
export const AUDIT_KEEP = 10_000;

export interface ControlStore {
  /** `redis` for a fleet, `memory` for one replica */
  readonly kind: 'memory' | 'redis';
  /** the head alone (cheap: what a replica polls); null when there is no state */
  head(): Promise<ControlHead | null>;
  read(): Promise<StoredControl | null>;
  /**
   * Writes `text` over `expected` (null: makes the state afresh under `epoch`, only when there is
   * none), appending the audit records, newest last, and recording `command` (none: a mark of its
   * own, so its outcome can still be learned); answers what is there
   * when that is not the head, and the record when the command's id is recorded already.
   *
   * Exactly once: a write either lands in time, or never. One Redis did not answer is fenced (it
   * cannot land later than a short window after it was sent) and its outcome learned once the
   * window has passed; a write that did not land fails with STATE_STORE_UNAVAILABLE (retry: it
   * will never apply), one whose outcome Redis would not tell in time with COMMAND_OUTCOME_UNKNOWN.
   */
  write(expected: ControlHead | null, text: string, audit: readonly string[], epoch: string, command?: CommandMark): Promise<ControlWrite>;
  /** the record of a command (null: none, or it lapsed) */
  command(id: string): Promise<string | null>;
  /** records a command that wrote nothing (it changed nothing, or was refused); answers the record there already, if any (then nothing is recorded) */
  recordCommand(command: CommandMark): Promise<string | null>;
  /**
   * Re-seeds a lost state under a new `epoch` from a replica's copy (`from`: its head), with its
   * audit trail (oldest first): taken when there is no state, when the state there is older within
   * `from`'s epoch (a failover to a lagging Redis), or when it is an unchanged seed (or a fresh state)
   * made from an older copy. Answers what is there afterwards.
   */
  seed(from: ControlHead, text: string, audit: readonly string[], epoch: string): Promise<ControlWrite>;
  /** the newest `count` audit records, newest first */
  audit(count: number): Promise<string[]>;
}

/** The rank a state is re-seeded by: what it was seeded from while unchanged since, else itself. */
export function seedRank(head: ControlHead): { epoch: string; version: number } {
  return head.from && head.version === 1 ? head.from : { epoch: head.epoch, version: head.version };
}

/**
 * Whether a replica holding `mine` should re-seed over `stored` rather than follow it: nothing is
 * stored while it holds a state, the stored one went back within its epoch, or it is an unchanged
 * seed (or a fresh state) made from older than what the replica holds.
 */
export function shouldReseed(mine: ControlHead, stored: ControlHead | null): boolean {
  if (mine.epoch === '') return false;
  if (stored === null) return true;
  if (stored.epoch === mine.epoch) return stored.version < mine.version;
  if (stored.version !== 1) return false;
  const theirs = stored.from;
  const ours = seedRank(mine);
  return theirs === null || (theirs.epoch === ours.epoch && theirs.version < ours.version);
}
