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
 * changed only by the control reducer. Keyed by route: `resource|op,op`, its operations in
 * alphabetical order whatever order the file names them in (`routeKey`).
 */
export interface ControlDoc {
  config: PublishedConfig | null;
  kill: KillState | null;
  rollbacks: Readonly<Record<string, Rollback>>;
  progress: Readonly<Record<string, RouteProgress>>;
  approvals: Readonly<Record<string, PendingApproval>>;
  /** the diff report's last reset by an operator: every replica's report begins again from it */
  diffReset: DiffReset | null;
  /**
   * What each route's callers are bucketed by, where it is not the route's key: a route a file named
   * in another order before keys were ordered keeps its callers where they were. Absent: a document
   * written before then, whose routes still bucket by the order the file names them in.
   */
  bucketKeys?: Readonly<Record<string, string>> | undefined;
}

/** When an operator reset the diff report, and who. */
export interface DiffReset {
  at: number;
  actor: string;
}

export const EMPTY_DOC: ControlDoc = { config: null, kill: null, rollbacks: {}, progress: {}, approvals: {}, diffReset: null, bucketKeys: {} };

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
    rollbacks: byRouteKey(record(raw.rollbacks)),
    progress: byRouteKey(record(raw.progress)),
    approvals: byRouteKey(record(raw.approvals)),
    diffReset: typeof reset.at === 'number' && typeof reset.actor === 'string' ? (reset as unknown as DiffReset) : null,
    bucketKeys: raw.bucketKeys === undefined ? undefined : (record(raw.bucketKeys) as Record<string, string>),
  };
}

/**
 * A stored map of routes under their keys as `routeKey` makes them: one stored under a key of the
 * order a file named its operations in is carried over (the next write keeps it so, once); a route
 * stored under both keeps the ordered one's entry.
 */
function byRouteKey<T>(stored: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(stored)) {
    const ordered = orderedKey(key);
    if (ordered === key || !(ordered in stored)) out[ordered] = value;
  }
  return out;
}

/** A key with its operations in alphabetical order. */
function orderedKey(key: string): string {
  const { resource, operations } = routeOfKey(key);
  return routeKey(resource, operations);
}

/** The key a route was stored and bucketed under before keys were ordered: its operations in the file's order. */
function fileOrderKey(resource: string, operations: readonly string[]): string {
  return `${resource}|${operations.join(',')}`;
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
  return routeKey('', a) === routeKey('', b);
}

/** A route's key: its resource and operations, in alphabetical order (`[list, get]` and `[get, list]` are one route). */
export function routeKey(resource: string, operations: readonly string[]): string {
  return `${resource}|${[...operations].sort().join(',')}`;
}

/**
 * The bucket keys a configuration is published with: the document's own, for the routes still in
 * it; for a document of before keys were ordered, each route's key in the order the configuration
 * then in force named it, so no caller moves when keys become ordered or the file is reordered.
 */
export function bucketKeysFor(
  doc: ControlDoc,
  inForce: readonly { resource: string; operations: readonly string[] }[],
  keys: ReadonlySet<string>,
): Record<string, string> {
  const given: Record<string, string> = { ...(doc.bucketKeys ?? {}) };
  if (doc.bucketKeys === undefined) {
    for (const r of inForce) {
      const legacy = fileOrderKey(r.resource, r.operations);
      const key = routeKey(r.resource, r.operations);
      if (legacy !== key) given[key] = legacy;
    }
  }
  return Object.fromEntries(Object.entries(given).filter(([k]) => keys.has(k)));
}

/** What a route's callers are bucketed by now. */
export function bucketKeyOf(doc: ControlDoc, route: { resource: string; operations: readonly string[] }): string {
  const key = routeKey(route.resource, route.operations);
  if (doc.bucketKeys === undefined) return fileOrderKey(route.resource, route.operations);
  return doc.bucketKeys[key] ?? key;
}
