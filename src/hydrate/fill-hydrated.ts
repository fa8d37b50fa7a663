import { type Json, getPath, isObject, setPath } from '../json/json-path.js';

/** The uids of the objects at `at` in a page of items (what one batched lookup must fetch). */
export function hydrationUids(items: readonly Json[], at: readonly string[]): string[] {
  return items.map((item) => getPath(item, [...at, 'uid'])).filter((uid): uid is string => typeof uid === 'string' && uid !== '');
}

/**
 * Completes the object at `at` of each item with `fields` of the looked-up resource of the same uid;
 * an object the lookup did not find (the caller may not see it) gets empty fields. `uid` comes first,
 * then the looked-up fields, then what the object already had. Changes `items` in place.
 */
export function fillHydrated(items: Json[], at: readonly string[], fields: readonly string[], found: ReadonlyMap<string, Json | null>): Json[] {
  for (const item of items) {
    const object = getPath(item, at);
    if (!isObject(object) || typeof object.uid !== 'string') continue;
    const other = found.get(object.uid) ?? null;
    const filled: Json = { uid: object.uid };
    for (const field of fields) filled[field] = other?.[field] ?? '';
    for (const [k, v] of Object.entries(object)) if (!(k in filled)) filled[k] = v;
    setPath(item, at, filled);
  }
  return items;
}
