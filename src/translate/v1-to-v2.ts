import type { CapabilityTable, CompiledRule, CompiledRules } from '../mapping/compiled-resource.js';
import { enumToV2 } from './convert-enum.js';
import { type Json, getPath, isObject, setPath } from '../json/json-path.js';
import { normalizeTimestamp } from './timestamp.js';

function convert(value: unknown, c: CompiledRule, caps: CapabilityTable): unknown {
  const { rule } = c;
  if (rule.type === 'timestamp') return normalizeTimestamp(value);
  if (rule.enum) return enumToV2(value, rule.enum, caps);
  let out = value;
  if (c.children) {
    const children = c.children;
    if (isObject(value)) out = toV2(value, children, caps);
    else if (Array.isArray(value)) out = value.map((v) => (isObject(v) ? toV2(v, children, caps) : v));
  }
  if (rule.only && isObject(out)) {
    const source = out;
    out = Object.fromEntries((rule.only ?? []).filter((k) => Object.hasOwn(source, k)).map((k) => [k, source[k]]));
  }
  return out;
}

/**
 * A v1 record in its v2 shape: renamed fields, converted values, hidden fields dropped. Fields the
 * mapping does not know keep their name and value, so nothing v1 sends is lost on the way.
 */
export function toV2(v1: Json, rules: CompiledRules, caps: CapabilityTable): Json {
  const out: Json = {};
  // for…in over own JSON properties: this runs once per item of a 50k-item list, so no entry arrays.
  for (const key in v1) {
    if (!Object.hasOwn(v1, key)) continue;
    const value = v1[key];
    const matching = rules.outByV1.get(key);
    if (!matching) {
      out[key] = value;
      continue;
    }
    if (matching.length === 1 && (matching[0] as CompiledRule).plain) {
      out[(matching[0] as CompiledRule).v2[0] as string] = value;
      continue;
    }
    for (const c of matching) {
      if (c.rule.hidden) continue;
      const v = c.v1.length > 1 ? getPath(v1, c.v1) : value;
      if (v === undefined) continue;
      setPath(out, c.v2, convert(v, c, caps));
    }
  }
  return out;
}
