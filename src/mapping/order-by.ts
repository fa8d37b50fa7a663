import type { FieldViolation } from '../errors/api-error.js';
import { camelCase } from '../json/json-path.js';

export interface SortKey {
  /** v2 field path */
  field: string[];
  desc: boolean;
}

// Names clients use for the timestamps (the proto's `created_at` is v2's createTime).
const ALIASES: Record<string, string> = {
  createdAt: 'createTime',
  createTime: 'createTime',
  updatedAt: 'updateTime',
  updateTime: 'updateTime',
  deletedAt: 'deleteTime',
  deleteTime: 'deleteTime',
  id: 'uid',
};

export type OrderByResult = { ok: true; keys: SortKey[]; canonical: string } | { ok: false; violation: FieldViolation };

/**
 * AIP-132 `order_by`: comma-separated fields, each optionally ` asc` / ` desc`, snake or camel
 * names. Ties are always broken by `uid` ascending-or-matching the last direction, so every order is
 * total. Returns a result, never throws.
 */
export function parseOrderBy(
  text: string | undefined,
  opts: { sortable: readonly string[]; defaultOrder: string; aliases?: Readonly<Record<string, string>> },
): OrderByResult {
  const source = text === undefined || text.trim() === '' ? opts.defaultOrder : text;
  const keys: SortKey[] = [];
  for (const part of source.split(',')) {
    const words = part.trim().split(/\s+/);
    const [rawName, direction, ...extra] = words;
    if (!rawName || extra.length > 0 || (direction !== undefined && !/^(asc|desc)$/i.test(direction))) {
      return { ok: false, violation: { field: 'order_by', description: `"${part.trim()}" is not "<field> [asc|desc]"` } };
    }
    const camel = camelCase(rawName);
    const name = opts.aliases?.[rawName] ?? opts.aliases?.[camel] ?? ALIASES[camel] ?? camel;
    if (!opts.sortable.includes(name)) {
      return { ok: false, violation: { field: 'order_by', description: `cannot sort by "${rawName}"; sortable fields: ${opts.sortable.join(', ')}` } };
    }
    if (keys.some((k) => k.field.join('.') === name)) continue;
    keys.push({ field: name.split('.'), desc: direction?.toLowerCase() === 'desc' });
  }
  if (!keys.some((k) => k.field.join('.') === 'uid')) keys.push({ field: ['uid'], desc: keys.at(-1)?.desc ?? false });
  const canonical = keys.map((k) => `${k.field.join('.')} ${k.desc ? 'desc' : 'asc'}`).join(',');
  return { ok: true, keys, canonical };
}
