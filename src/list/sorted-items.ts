import { type Json, getPath } from '../translate/json-path.js';
import type { SortKey } from './order-by.js';

export type KeyValue = string | number | boolean | null;

/** A sortable, JSON-safe value: lists sort by their joined text, absent values first. */
function keyValue(value: unknown): KeyValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(String).join(',');
  return JSON.stringify(value);
}

const RANK = { null: 0, boolean: 1, number: 2, string: 3 } as const;
const rank = (v: KeyValue) => RANK[v === null ? 'null' : (typeof v as 'boolean' | 'number' | 'string')];

function compareMixed(a: KeyValue, b: KeyValue): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  return (a as string | number | boolean) < (b as string | number | boolean) ? -1 : 1;
}

export type KeyComparator = (a: readonly KeyValue[], b: readonly KeyValue[]) => number;

/** A comparator built once per order: the hot path (two strings) does no lookups. */
export function comparatorFor(order: readonly SortKey[]): KeyComparator {
  const dirs = order.map((k) => (k.desc ? -1 : 1));
  const n = dirs.length;
  return (a, b) => {
    for (let i = 0; i < n; i += 1) {
      const x = a[i] ?? null;
      const y = b[i] ?? null;
      if (x === y) continue;
      const c = typeof x === 'string' && typeof y === 'string' ? (x < y ? -1 : 1) : compareMixed(x, y);
      return c * (dirs[i] as number);
    }
    return 0;
  };
}

export interface SortedItems {
  items: Json[];
  keys: KeyValue[][];
}

/**
 * The order of a single unique string key (the default `uid` order): the engine's native string sort
 * is faster than any comparator. Undefined when the keys are not all distinct strings.
 */
function nativeStringOrder(keys: readonly KeyValue[][], desc: boolean): number[] | undefined {
  const position = new Map<string, number>();
  const strings: string[] = [];
  for (let i = 0; i < keys.length; i += 1) {
    const v = (keys[i] as KeyValue[])[0];
    if (typeof v !== 'string' || position.has(v)) return undefined;
    position.set(v, i);
    strings.push(v);
  }
  strings.sort();
  if (desc) strings.reverse();
  return strings.map((v) => position.get(v) as number);
}

/** Sorts once with the keys computed once per item (decorate, sort, undecorate). */
export function sortItems(items: readonly Json[], order: readonly SortKey[]): SortedItems {
  const keys = items.map((item) => order.map((k) => keyValue(getPath(item, k.field))));
  let indices = order.length === 1 ? nativeStringOrder(keys, order[0]?.desc ?? false) : undefined;
  if (!indices) {
    const compare = comparatorFor(order);
    indices = keys.map((_, i) => i).sort((x, y) => compare(keys[x] as KeyValue[], keys[y] as KeyValue[]));
  }
  return { items: indices.map((i) => items[i] as Json), keys: indices.map((i) => keys[i] as KeyValue[]) };
}

/** The index of the first item strictly after `after` in this order (binary search on the keys). */
export function seekAfter(keys: readonly (readonly KeyValue[])[], after: readonly KeyValue[], order: readonly SortKey[]): number {
  const compare = comparatorFor(order);
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(keys[mid] as KeyValue[], after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
