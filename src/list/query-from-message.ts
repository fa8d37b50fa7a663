import type { JsonValue } from '@bufbuild/protobuf';
import type { RawQuery } from './query-params.js';

/**
 * A List request message (as proto JSON) in the REST query shape the list operation reads:
 * nested fields dotted (`uidp.descendantsOf`), repeated fields as repeated keys, scalars as text.
 * The list operation accepts the camelCase names proto JSON uses.
 */
export function queryFromMessage(json: JsonValue): RawQuery {
  const query: Record<string, string | string[]> = {};
  const add = (key: string, value: string) => {
    const known = query[key];
    query[key] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
  };
  const walk = (value: JsonValue, key: string, depth: number) => {
    if (value === null || depth > 4) return;
    if (Array.isArray(value)) for (const one of value) walk(one, key, depth + 1);
    else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, key === '' ? k : `${key}.${k}`, depth + 1);
    else add(key, String(value));
  };
  walk(json, '', 0);
  return query;
}
