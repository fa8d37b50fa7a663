import type { CapabilityTable, CompiledRule, CompiledRules } from '../mapping/compiled-resource.js';
import { enumToV1 } from './convert-enum.js';
import { type Json, camelCase, isObject, setPath } from '../json/json-path.js';

/** One v2 value in its v1 form, by the rule that owns it. */
export function valueToV1(value: unknown, c: CompiledRule, caps: CapabilityTable): unknown {
  const { rule } = c;
  if (rule.enum) {
    return Array.isArray(value) ? value.map((v) => enumToV1(v, rule.enum ?? {}, caps) ?? v) : (enumToV1(value, rule.enum, caps) ?? value);
  }
  if (c.children) {
    const children = c.children;
    if (isObject(value)) return toV1(value, children, caps, 'keep');
    if (Array.isArray(value)) return value.map((v) => (isObject(v) ? toV1(v, children, caps, 'keep') : v));
  }
  return value;
}

/**
 * A v2 request body in its v1 shape. Output-only fields are dropped (AIP-203: ignored on input).
 * Unknown top-level keys are dropped on create (`drop`, as the gateway discards them) and kept where
 * a whole record is being rebuilt (`keep`); inside nested objects they are always kept.
 */
export function toV1(v2: Json, rules: CompiledRules, caps: CapabilityTable, unknown: 'drop' | 'keep'): Json {
  const out: Json = {};
  for (const [rawKey, value] of Object.entries(v2)) {
    const key = rules.inByV2.has(rawKey) ? rawKey : camelCase(rawKey);
    const c = rules.inByV2.get(key);
    if (!c) {
      const known = rules.all.some((r) => r.v2[0] === key);
      if (!known && unknown === 'keep') out[rawKey] = value;
      continue;
    }
    setPath(out, c.v1, valueToV1(value, c, caps));
  }
  return out;
}
