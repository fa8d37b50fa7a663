import type { CompiledRules } from '../mapping/compiled-resource.js';
import { normalizeTimestamp } from '../translate/timestamp.js';
import type { SortKey } from '../mapping/order-by.js';
import { type KeyFn, keyValueOf } from './sorted-items.js';

/**
 * Sort keys read straight from v1 records, when every sort field is a v1 field under another name
 * (or a timestamp that only needs normalizing). Then a snapshot can hold v1 records as they came
 * and translate just the items a page serves. Undefined when some field needs the v2 shape.
 */
export function v1KeyFn(rules: CompiledRules, order: readonly SortKey[]): KeyFn | undefined {
  const readers: { path: string[]; normalize?: (v: unknown) => unknown }[] = [];
  for (const key of order) {
    if (key.field.length !== 1) return undefined;
    const name = key.field[0] as string;
    const rule = rules.all.find((r) => r.v2.length === 1 && r.v2[0] === name && !r.rule.input);
    if (!rule) {
      readers.push({ path: [name] });
      continue;
    }
    if (!rule.plain && rule.rule.type !== 'timestamp') return undefined;
    if (rule.rule.enum || rule.children || rule.rule.only || rule.rule.hidden || rule.rule.meta) return undefined;
    readers.push(rule.rule.type === 'timestamp' ? { path: rule.v1, normalize: normalizeTimestamp } : { path: rule.v1 });
  }
  return (item) => readers.map((r) => keyValueOf(item, r.path, r.normalize));
}
