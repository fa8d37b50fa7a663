import { type Json, deletePath, getPath, isObject, setPath } from '../json/json-path.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import { v1Path } from '../translate/v1-path.js';
import type { MaskedField } from './field-mask.js';
import { oneofSiblings } from './oneof-siblings.js';

/**
 * The v1 record a PATCH writes back: the current record with the masked fields changed. Fields the
 * mask does not name (and fields the mapping does not know) stay as read; setting one member of a
 * oneof clears the others; an absent or null value resets the field (v1 zeroes an omitted field on
 * PUT). Pure: `current` is not changed; only the objects on the changed paths are copied, so a
 * field however deep that the mask replaces is never walked.
 */
export function mergeMasked(current: Json, fields: readonly MaskedField[], resource: Pick<CompiledResource, 'mapping' | 'rules' | 'capabilities'>): Json {
  const { mapping, rules, capabilities } = resource;
  const record: Json = { ...current };
  for (const [field, from] of Object.entries(mapping.v1.writeBack)) record[field] = getPath(current, from.split('.'));
  for (const path of oneofSiblings(mapping.oneofs, fields)) {
    const target = v1Path(rules, path).path;
    copyAlong(record, target);
    deletePath(record, target);
  }
  for (const { path, value } of fields) {
    const target = v1Path(rules, path);
    copyAlong(record, target.path);
    if (value === undefined || value === null) deletePath(record, target.path);
    else setPath(record, target.path, target.convert(value, capabilities));
  }
  return record;
}

/** Replaces each object above the last segment of `path` with its own shallow copy, so a change there leaves `current` alone. */
function copyAlong(record: Json, path: readonly string[]): void {
  let node = record;
  for (const key of path.slice(0, -1)) {
    const child = Object.hasOwn(node, key) ? node[key] : undefined;
    if (!isObject(child)) return;
    const copy = { ...child };
    node[key] = copy;
    node = copy;
  }
}
