import type { RouteProgress } from './route-progress.js';

/** The configuration the fleet runs: a rollout file's text as one replica loaded it. */
export interface PublishedConfig {
  text: string;
  /** the first 16 hex digits of the text's SHA-256 */
  digest: string;
  at: number;
  /** who loaded it: `file` (a change seen, SIGHUP, a start), or the operator who asked for a reload */
  actor: string;
}

/** An operator's kill switch: on or off whatever the file says, until the file's own `killSwitch` changes. */
export interface KillState {
  on: boolean;
  actor: string;
  at: number;
  reason: string;
}

/** A route the guard sent back to translation, until when, and how many times it has been. */
export interface Rollback {
  until: number;
  count: number;
  at: number;
  why: string;
}

/** A move toward native one operator asked for, waiting for a second operator (the rollout file's `approvals`). */
export interface PendingApproval {
  action: 'promote' | 'retry';
  /** the route's stage when asked: a move of the route meanwhile voids it */
  stage: number;
  step: number;
  /** the native share the move leads to */
  toNative: number;
  requestedBy: string;
  at: number;
  reason: string;
}

/**
 * The rollout's control state: the same for every replica of a fleet (one document in Redis), and
 * changed only by the control reducer. Keyed by route: `resource|op,op` as the file names them.
 */
export interface ControlDoc {
  config: PublishedConfig | null;
  kill: KillState | null;
  rollbacks: Readonly<Record<string, Rollback>>;
  progress: Readonly<Record<string, RouteProgress>>;
  approvals: Readonly<Record<string, PendingApproval>>;
  /** the diff report's last reset by an operator: every replica's report begins again from it */
  diffReset: DiffReset | null;
}

/** When an operator reset the diff report, and who. */
export interface DiffReset {
  at: number;
  actor: string;
}

export const EMPTY_DOC: ControlDoc = { config: null, kill: null, rollbacks: {}, progress: {}, approvals: {}, diffReset: null };

const record = (v: unknown): Record<string, never> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, never>) : {});

/** A stored document read back: what is not an object of its kind is left out, never thrown on. */
export function parseControlDoc(text: string): ControlDoc {
  let raw: Record<string, unknown>;
  try {
    raw = record(JSON.parse(text));
  } catch {
    return EMPTY_DOC;
  }
  const config = record(raw.config);
  const kill = record(raw.kill);
  const reset = record(raw.diffReset);
  return {
    config: typeof config.text === 'string' && typeof config.digest === 'string' ? (config as unknown as PublishedConfig) : null,
    kill: typeof kill.on === 'boolean' ? (kill as unknown as KillState) : null,
    rollbacks: record(raw.rollbacks),
    progress: record(raw.progress),
    approvals: record(raw.approvals),
    diffReset: typeof reset.at === 'number' && typeof reset.actor === 'string' ? (reset as unknown as DiffReset) : null,
  };
}

/** Who made a change: an operator's name, or one of the automatic actors. */
export type Actor = string;

/**
 * One change of control state, as the audit trail keeps it, the console shows it and the webhook
 * carries it. `before` and `after` hold what changed (a route's state, step and share; the kill
 * switch; the configuration's digest); `figures` what decided an automatic change.
 */
export interface AuditRecord {
  id: string;
  /** its place in the trail of the control state's epoch: 1, 2, … (a re-seed numbers the trail it carries afresh) */
  seq: number;
  at: string;
  actor: Actor;
  action: string;
  route: { resource: string; operations: string[] } | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  reason: string;
  figures: Record<string, unknown> | null;
}

/** The route a key names. */
export function routeOfKey(key: string): { resource: string; operations: string[] } {
  const [resource = '', operations = ''] = key.split('|');
  return { resource, operations: operations === '' ? [] : operations.split(',') };
}

/** Whether two lists name the same operations, in whatever order (a command or a query names a route so). */
export function sameOperations(a: readonly string[], b: readonly string[]): boolean {
  return [...a].sort().join(',') === [...b].sort().join(',');
}

export function routeKey(resource: string, operations: readonly string[]): string {
  return `${resource}|${operations.join(',')}`;
}
