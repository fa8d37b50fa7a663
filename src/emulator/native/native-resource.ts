import type { FieldViolation } from '../../errors/api-error.js';
import type { Ctx } from '../collection.js';
import type { AnyCollection } from '../collections/index.js';
import type { Query } from '../query.js';
import type { Json } from '../store.js';

export type NativeOperation = 'list' | 'get' | 'create' | 'update' | 'delete';

/**
 * One resource of the emulator's native v2beta1 surface, written from the v2 facts: how a stored record
 * looks in v2, how a v2 body becomes a record, what a list may filter and sort on. It reads and writes
 * the same store as the v1 surface (through the v1 collection's create/replace), so both versions see
 * one set of data.
 */
export interface NativeResource {
  /** the v2 collection name, also the list key (`groups`, `roleBindings`) */
  plural: string;
  /** `/iam/v2beta1`, `/registry/v2beta1`, `/vulnerabilities/v2beta1` */
  prefix: string;
  /** the v1 collection holding the records */
  collection: AnyCollection;
  operations: readonly NativeOperation[];
  /** the record as v2 shows it */
  view(record: any, ctx: Ctx): Json;
  /** the create answer, where it shows more than a read (an invite's code) */
  createView?(record: any, ctx: Ctx): Json;
  /** the v1-shaped body the collection's create/replace takes, from a v2 resource (a create body, or a merged PATCH) */
  toRecordBody?(v2: Json, ctx: Ctx): Json;
  /** v2 fields a client may write */
  writable: readonly string[];
  /** groups of writable fields of which a resource holds one (proto oneofs) */
  oneofs?: readonly (readonly string[])[];
  /** checks a v2 body with v2 field names; every failed field at once */
  validate?(v2: Json, ctx: Ctx): FieldViolation[];
  sortable: readonly string[];
  defaultOrder: string;
  /** list parameters besides `uidp.*` and `name` (`name` only where the resource has one) */
  filter?(record: any, view: Json, q: Query): boolean;
  /** whether `name` is a list filter */
  named: boolean;
  /** root-level records (managed roles) belong to every group's list scoped by `uidp.descendants_of`/`children_of` */
  rootShared?: boolean;
}
