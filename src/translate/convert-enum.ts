import type { CapabilityTable } from '../mapping/compiled-resource.js';
import type { FieldRule } from '../mapping/mapping-schema.js';

type EnumRule = NonNullable<FieldRule['enum']>;

/** v1 enum value name → v2 (`X` → `PREFIX_X`, the zero value renamed, capabilities by table). */
export function enumToV2(value: unknown, rule: EnumRule, caps: CapabilityTable): unknown {
  if (Array.isArray(value)) return value.map((v) => enumToV2(v, rule, caps));
  if (typeof value !== 'string') return value;
  if (rule.table === 'capabilities') return caps.toV2.get(value) ?? value;
  if (rule.zero && value === rule.zero[0]) return rule.zero[1];
  return rule.prefix && !value.startsWith(rule.prefix) ? `${rule.prefix}${value}` : value;
}

/** v2 enum value name → v1, or undefined when it is not a value of the enum. */
export function enumToV1(value: unknown, rule: EnumRule, caps: CapabilityTable): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (rule.table === 'capabilities') return caps.toV1.get(value);
  if (rule.zero && value === rule.zero[1]) return rule.zero[0];
  if (rule.prefix) return value.startsWith(rule.prefix) && value.length > rule.prefix.length ? value.slice(rule.prefix.length) : undefined;
  return value;
}
