import { type Json, getPath } from '../json/json-path.js';
import type { SortKey } from '../mapping/order-by.js';

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

/** The sort key of one item, as JSON-safe values (what a page token remembers). */
export type KeyFn = (item: Json) => KeyValue[];

/** Sort keys read from a v2 item by the v2 field paths of the order. */
export function v2KeyFn(order: readonly SortKey[]): KeyFn {
  return (item) => order.map((k) => keyValue(getPath(item, k.field)));
}

/**
 * A single string key (the default `uid` order) sorts item indices by a plain string comparison,
 * with no key arrays to walk: the engine compares strings fastest this way. Undefined when a value
 * is not a string.
 */
function singleStringSort<T>(items: readonly T[], keyOf: (item: T) => KeyValue[], desc: boolean): T[] | undefined {
  const values: string[] = new Array(items.length);
  for (let i = 0; i < items.length; i += 1) {
    const v = keyOf(items[i] as T)[0];
    if (typeof v !== 'string') return undefined;
    values[i] = v;
  }
  const after = desc ? -1 : 1;
  const order = Array.from(values.keys()).sort((a, b) => {
    const x = values[a] as string;
    const y = values[b] as string;
    return x === y ? 0 : x < y ? -after : after;
  });
  return order.map((i) => items[i] as T);
}

/** Sorts once, each item's key computed once (decorate, sort, undecorate); keys are not kept. */
export function sortItems<T>(items: readonly T[], order: readonly SortKey[], keyOf: (item: T) => KeyValue[]): T[] {
  const single = order.length === 1 ? singleStringSort(items, keyOf, (order[0] as SortKey).desc) : undefined;
  if (single) return single;
  const compare = comparatorFor(order);
  const decorated = items.map((item) => ({ item, key: keyOf(item) }));
  decorated.sort((x, y) => compare(x.key, y.key));
  return decorated.map((d) => d.item);
}

/** The index of the first of `count` sorted items strictly after `after` in this order (binary search). */
export function seekAfter(count: number, after: readonly KeyValue[], order: readonly SortKey[], keyAt: (index: number) => KeyValue[]): number {
  const compare = comparatorFor(order);
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(keyAt(mid), after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
