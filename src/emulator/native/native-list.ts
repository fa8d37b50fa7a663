import { invalidFields } from '../../errors/error-registry.js';
import { createHash } from 'node:crypto';
import type { ApiError } from '../../errors/api-error.js';
import type { Query } from '../query.js';
import type { Json } from '../store.js';

const TOKEN_LIFETIME_MS = 3 * 24 * 3600 * 1000;
const ALIASES: Record<string, string> = { created_at: 'createTime', create_time: 'createTime', updated_at: 'updateTime', update_time: 'updateTime', id: 'uid' };

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const bad = (field: string, description: string): ApiError => invalidFields([{ field, description }]);

interface OrderKey {
  field: string;
  desc: boolean;
}

function parseOrder(text: string, sortable: readonly string[]): OrderKey[] {
  const keys: OrderKey[] = [];
  for (const part of text.split(',')) {
    const [raw, dir, ...rest] = part.trim().split(/\s+/);
    if (!raw || rest.length > 0 || (dir !== undefined && !/^(asc|desc)$/i.test(dir))) throw bad('order_by', `"${part.trim()}" is not "<field> [asc|desc]"`);
    const field = ALIASES[raw] ?? camel(raw);
    if (!sortable.includes(field)) throw bad('order_by', `cannot sort by "${raw}"; sortable fields: ${sortable.join(', ')}`);
    if (!keys.some((k) => k.field === field)) keys.push({ field, desc: dir?.toLowerCase() === 'desc' });
  }
  if (!keys.some((k) => k.field === 'uid')) keys.push({ field: 'uid', desc: keys.at(-1)?.desc ?? false });
  return keys;
}

function sortValue(item: Json, field: string): string {
  const v = item[field];
  if (Array.isArray(v)) return v.join(',');
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
}

function compare(a: string[], b: string[], keys: readonly OrderKey[]): number {
  for (let i = 0; i < keys.length; i += 1) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return (x < y ? -1 : 1) * ((keys[i] as OrderKey).desc ? -1 : 1);
  }
  return 0;
}

function intParam(q: Query, name: string): number {
  const raw = q.one(name);
  if (raw === undefined || raw === '') return 0;
  if (!/^-?\d+$/.test(raw)) throw bad(name, 'must be an integer');
  const n = Number(raw);
  if (n < 0) throw bad(name, 'must not be negative');
  // an int32 field: the gateway refuses a value it cannot hold
  if (n > 2_147_483_647) throw bad(name, 'is out of range (int32)');
  return n;
}

interface Cursor {
  /** the sort key of the last item served */
  k: string[];
  /** what the token is bound to: the query's filters and order */
  b: string;
  /** issued at (ms) */
  t: number;
}

/**
 * A native v2 list: sorts the matching items, starts after the cursor (a keyset position: the last
 * item's sort key), skips, and cuts a page. Tokens are opaque, bound to the filters and order, and
 * restart the list after three days.
 */
export function nativePage(
  plural: string,
  items: Json[],
  q: Query,
  opts: { sortable: readonly string[]; defaultOrder: string; binding: string; now: number },
): Json {
  const orderText = q.one('order_by');
  const keys = parseOrder(orderText === undefined || orderText.trim() === '' ? opts.defaultOrder : orderText, opts.sortable);
  const rawSize = intParam(q, 'page_size');
  const pageSize = rawSize === 0 ? 50 : Math.min(rawSize, 200);
  const skip = intParam(q, 'skip');
  const binding = createHash('sha256')
    .update(`${opts.binding}|${keys.map((k) => `${k.field} ${k.desc}`).join(',')}`)
    .digest('base64url')
    .slice(0, 16);
  const keyed = items.map((item) => ({ item, key: keys.map((k) => sortValue(item, k.field)) }));
  keyed.sort((a, b) => compare(a.key, b.key, keys));

  let start = 0;
  const token = q.one('page_token') ?? '';
  if (token !== '') {
    const cursor = openCursor(token);
    if (!cursor || cursor.b !== binding) throw bad('page_token', 'is not a token of this list (filters or order_by changed, or it was altered)');
    if (opts.now - cursor.t <= TOKEN_LIFETIME_MS) {
      start = keyed.findIndex((e) => compare(e.key, cursor.k, keys) > 0);
      if (start < 0) start = keyed.length;
    }
  }
  start += skip;
  const page = keyed.slice(start, start + pageSize);
  const end = start + page.length;
  const last = page.at(-1);
  const nextPageToken = last && end < keyed.length ? sealCursor({ k: last.key, b: binding, t: opts.now }) : '';
  return { [plural]: page.map((e) => e.item), nextPageToken, totalCount: String(keyed.length), skipped: skip };
}

function sealCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function openCursor(token: string): Cursor | undefined {
  try {
    const c = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (!Array.isArray(c.k) || !c.k.every((x) => typeof x === 'string') || typeof c.b !== 'string' || typeof c.t !== 'number') return undefined;
    return c as Cursor;
  } catch {
    return undefined;
  }
}
