import type { Access } from './access.js';
import { invalid, notFound } from './grpc-status.js';
import type { Query } from './query.js';
import { forgetTimes, stampCreated, stampUpdated } from './record-times.js';
import type { CollectionName, Json, Store } from './store.js';
import { isAncestor, isSelfOrAncestor, parentOf } from '../uidp/uidp.js';

export interface Ctx {
  store: Store;
  access: Access;
  now: number;
  /** loading a seed file: records only a seed may hold (extra managed roles at the root) are allowed */
  seeding?: boolean;
}

/**
 * One v1 collection, described as data plus a few functions; `register-collection.ts` turns it into
 * the List / Create / PUT / DELETE routes, with authentication and authorization around them.
 */
export interface CollectionDef<R> {
  name: CollectionName;
  /** v1 base path, e.g. `/iam/v1/groups` */
  path: string;
  /** capability family, e.g. `groups` → `groups.list`, `groups.create`, … */
  capability: string;
  /** where the parent of a new record comes from: the path (`/base/{parent=**}`) or the body */
  createParent: 'path' | 'body';
  /** records may also be created at the root, with no parent (organizations) */
  rootCreate?: boolean;
  keyOf(record: R): string;
  /**
   * the list filter that names one record by its key (`id`): a list given it looks that record up
   * instead of reading every record, as an indexed v1 does (`matches` still applies the filter)
   */
  keyFilter?: string;
  /** builds a new record from a create body (validating it); `parent` is the path parent or '' */
  create(body: Json, parent: string, ctx: Ctx, query: Query): R;
  /** builds the replacement of `existing` from a PUT body: omitted fields reset to zero values; no PUT route without it */
  replace?(body: Json, existing: R, ctx: Ctx): R;
  matches(record: R, query: Query, ctx: Ctx): boolean;
  renderList(record: R, ctx: Ctx): Json;
  renderWrite(record: R, ctx: Ctx): Json;
  /** a custom rule for who may create the record (root groups); default: `<cap>.create` on its key */
  authorizeCreate?(record: R, ctx: Ctx): void;
  /** whether a caller may see a record; default: `<cap>.list` on its key */
  visible?(record: R, ctx: Ctx): boolean;
  /** throws when the record may not be deleted (child repos…) */
  beforeDelete?(record: R, ctx: Ctx): void;
  /** removes what goes with the record once it is deleted */
  afterDelete?(record: R, ctx: Ctx): void;
  /** the list envelope; default `{items}` */
  listEnvelope?(items: R[], query: Query, ctx: Ctx): Json;
  /** record fields that hold epoch milliseconds and appear under the same name as v1 timestamps (seed files) */
  timestampFields?: readonly (keyof R & string)[];
  /** turns a seed-file record (v1 shape) into the body `create` takes, where the two differ */
  seedBody?(record: Json, ctx: Ctx): Json;
  /** runs after a create is stored (e.g. the creator of a root group becomes its owner) */
  afterCreate?(record: R, ctx: Ctx): void;
}

/** Whether a caller may see a record: the collection's own rule, or `<cap>.list` on its key. */
export function isVisible<R>(def: CollectionDef<R>, record: R, ctx: Ctx): boolean {
  return def.visible ? def.visible(record, ctx) : ctx.access.can(`${def.capability}.list`, def.keyOf(record));
}

/** Stores a new record (after its create rule allowed it), with its times and what goes with it. */
export function insertRecord<R>(def: CollectionDef<R>, record: R, ctx: Ctx): void {
  if (def.authorizeCreate) def.authorizeCreate(record, ctx);
  else ctx.access.require(`${def.capability}.create`, def.keyOf(record));
  const key = def.keyOf(record);
  (ctx.store[def.name] as Map<string, unknown>).set(key, record);
  stampCreated(ctx.store, def.name, key, ctx.now);
  def.afterCreate?.(record, ctx);
}

/** Stores the replacement of a record; its update time moves. */
export function replaceRecord<R>(def: CollectionDef<R>, key: string, record: R, ctx: Ctx): void {
  (ctx.store[def.name] as Map<string, unknown>).set(key, record);
  stampUpdated(ctx.store, def.name, key, ctx.now);
}

/** Removes a record once its delete rule allowed it, with its times and what goes with it. */
export function removeRecord<R>(def: CollectionDef<R>, key: string, current: R, ctx: Ctx): void {
  def.beforeDelete?.(current, ctx);
  (ctx.store[def.name] as Map<string, unknown>).delete(key);
  forgetTimes(ctx.store, def.name, key);
  def.afterDelete?.(current, ctx);
}

/** The v1 `UIDPFilter` (descendants_of, children_of, ancestors_of, in_root, ids), applied to one uid. */
export function matchesUidp(uid: string, query: Query): boolean {
  const descendantsOf = query.one('uidp.descendants_of');
  if (descendantsOf && !isAncestor(descendantsOf, uid)) return false;
  const childrenOf = query.one('uidp.children_of');
  if (childrenOf && parentOf(uid) !== childrenOf) return false;
  const ancestorsOf = query.one('uidp.ancestors_of');
  if (ancestorsOf && !isAncestor(uid, ancestorsOf)) return false;
  const inRoot = query.bool('uidp.in_root');
  if (inRoot === true && uid.includes('/')) return false;
  const ids = query.all('uidp.ids');
  if (ids.length > 0 && !ids.includes(uid)) return false;
  return true;
}

export function matchesExact(value: string, wanted: string | undefined): boolean {
  return wanted === undefined || wanted === '' || value === wanted;
}

export function requireGroup(ctx: Ctx, uid: string): void {
  if (!ctx.store.groups.has(uid)) throw notFound(`group "${uid}" not found`);
}

export function requireRepo(ctx: Ctx, uid: string): void {
  if (!ctx.store.repos.has(uid)) throw notFound(`repo "${uid}" not found`);
}

/** Keeps the records whose `value` is one of `wanted` (no filter when `wanted` is empty). */
export function matchesAny(value: string | undefined, wanted: string[]): boolean {
  return wanted.length === 0 || (value !== undefined && wanted.includes(value));
}

/** A role may be bound (or invited to) under `group` when it is built in or defined at or above it. */
export function requireRoleUsableIn(ctx: Ctx, roleUid: string, group: string): void {
  const role = ctx.store.roles.get(roleUid);
  const parent = parentOf(roleUid);
  if (!role || (parent !== '/' && !isSelfOrAncestor(parent, group))) {
    throw invalid(`role "${roleUid}" not found`);
  }
}
