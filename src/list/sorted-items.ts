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

function compareValue(a: KeyValue, b: KeyValue): number {
  if (a === b) return 0;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  return (a as string | number | boolean) < (b as string | number | boolean) ? -1 : 1;
}

export function compareKeys(a: readonly KeyValue[], b: readonly KeyValue[], order: readonly SortKey[]): number {
  for (let i = 0; i < order.length; i += 1) {
    const c = compareValue(a[i] ?? null, b[i] ?? null);
    if (c !== 0) return (order[i] as SortKey).desc ? -c : c;
  }
  return 0;
}

export interface SortedItems {
  items: Json[];
  keys: KeyValue[][];
}

/** Sorts once with the keys computed once per item (decorate, sort, undecorate). */
export function sortItems(items: readonly Json[], order: readonly SortKey[]): SortedItems {
  const decorated = items.map((item) => ({ item, key: order.map((k) => keyValue(getPath(item, k.field))) }));
  decorated.sort((x, y) => compareKeys(x.key, y.key, order));
  return { items: decorated.map((d) => d.item), keys: decorated.map((d) => d.key) };
}

/** The index of the first item strictly after `after` in this order (binary search on the keys). */
export function seekAfter(keys: readonly (readonly KeyValue[])[], after: readonly KeyValue[], order: readonly SortKey[]): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keys[mid] as KeyValue[], after, order) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
