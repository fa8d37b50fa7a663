import type { CapabilityTable, CompiledRule, CompiledRules } from '../mapping/compiled-resource.js';
import { valueToV1 } from './v2-to-v1.js';

/**
 * Where a v2 field path lives in v1, and its value converted: each segment is renamed by the rule
 * that owns it (descending into nested rules); segments no rule names keep their name.
 */
export function v1Path(rules: CompiledRules, v2Path: readonly string[]): { path: string[]; convert: (value: unknown, caps: CapabilityTable) => unknown } {
  const path: string[] = [];
  let level: CompiledRules | undefined = rules;
  let owner: CompiledRule | undefined;
  for (const segment of v2Path) {
    owner = level?.inByV2.get(segment);
    path.push(...(owner ? owner.v1 : [segment]));
    level = owner?.children;
  }
  const last = owner;
  return { path, convert: (value, caps) => (last ? valueToV1(value, last, caps) : value) };
}
