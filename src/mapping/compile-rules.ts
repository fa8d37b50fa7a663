import type { CompiledRule, CompiledRules } from './compiled-resource.js';
import type { FieldRule } from './mapping-schema.js';

/** Compiles field rules once: dotted names split, nested rules compiled, lookup maps built. */
export function compileRules(rules: readonly FieldRule[]): CompiledRules {
  const all: CompiledRule[] = rules.map((rule) => {
    const v1 = (rule.v1 ?? rule.v2).split('.');
    const v2 = rule.v2.split('.');
    // Only timestamps, enums, nested rules and `only` change a value on the way out; a type alone does not.
    const plain = v1.length === 1 && v2.length === 1 && rule.type !== 'timestamp' && !rule.enum && !rule.fields && !rule.only && !rule.hidden;
    return { rule, v1, v2, children: rule.fields ? compileRules(rule.fields) : undefined, plain };
  });
  const outByV1 = new Map<string, CompiledRule[]>();
  const inByV2 = new Map<string, CompiledRule>();
  for (const c of all) {
    if (!c.rule.input) {
      const key = c.v1[0] as string;
      outByV1.set(key, [...(outByV1.get(key) ?? []), c]);
    }
    if (!c.rule.output && !c.rule.hidden && c.v2.length === 1) inByV2.set(c.rule.v2, c);
  }
  // An input-only field v1 might still send (a secret) never leaves: it reads as hidden on the way out.
  for (const c of all) {
    const key = c.v1[0] as string;
    if (c.rule.input && !outByV1.has(key)) outByV1.set(key, [{ ...c, rule: { ...c.rule, hidden: true }, plain: false }]);
  }
  return { outByV1, inByV2, all };
}
