import type { CompiledRule, CompiledRules } from './compiled-resource.js';

/** What a v2 path names in a resource: a field a client may write, one it may not, or nothing. */
export type PathKind = 'input' | 'output' | 'unknown';

function ruleAt(level: CompiledRules, segment: string): CompiledRule | undefined {
  return level.all.find((c) => c.v2.length === 1 && c.v2[0] === segment && !c.rule.hidden);
}

/** One segment of a v2 path at one level of the rules: the writable rule it names, or why not. */
export function step(level: CompiledRules, segment: string): CompiledRule | 'output' | 'unknown' {
  const c = ruleAt(level, segment);
  if (!c) {
    // dotted output targets (a role binding's `identity.issuer`) make `identity` an output object
    const composite = level.all.some((r) => r.v2.length > 1 && r.v2[0] === segment && !r.rule.hidden);
    return composite ? 'output' : 'unknown';
  }
  return c.rule.output ? 'output' : c;
}

/**
 * Resolves a v2 path against the rules: nested rules are closed (their keys are the known ones), a
 * map may be addressed by one key (AIP-161), and an object with no nested rules is taken whole.
 */
export function pathKind(rules: CompiledRules, path: readonly string[]): PathKind {
  let level: CompiledRules = rules;
  for (let i = 0; i < path.length; i += 1) {
    const c = step(level, path[i] as string);
    if (typeof c === 'string') return c;
    const rest = path.length - i - 1;
    if (rest === 0) return 'input';
    if (c.children) {
      level = c.children;
      continue;
    }
    if (c.rule.type === 'map') return rest === 1 ? 'input' : 'unknown';
    return c.rule.type === 'object' ? 'input' : 'unknown';
  }
  return 'unknown';
}
