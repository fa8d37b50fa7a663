import type { FieldViolation } from '../errors/api-error.js';
import type { CompiledRules } from '../mapping/compiled-resource.js';
import { type Json, camelCase, isObject } from '../translate/json-path.js';

export type FieldMask = { kind: 'all' } | { kind: 'paths'; paths: string[][] };

/** The leaf paths of a body: nested objects down to their leaves; lists, maps and `{}` stop there. */
export function pathsOfBody(body: Json, prefix: string[] = []): string[][] {
  return Object.entries(body).flatMap(([key, value]) => {
    const path = [...prefix, camelCase(key)];
    return isObject(value) && Object.keys(value).length > 0 ? pathsOfBody(value, path) : [path];
  });
}

/**
 * The mask of a PATCH: `updateMask`/`update_mask` (comma-separated, camel or snake, dotted), `*` for
 * a full replacement, or without one the keys present in the body. Unknown first segments are
 * violations; output-only paths are dropped. Returns a result, never throws.
 */
export function parseFieldMask(
  maskParam: string | undefined,
  body: Json,
  rules: CompiledRules,
): { ok: true; mask: FieldMask } | { ok: false; violations: FieldViolation[] } {
  if (maskParam !== undefined && maskParam.trim() === '*') return { ok: true, mask: { kind: 'all' } };
  const explicit = maskParam !== undefined && maskParam.trim() !== '';
  const paths = explicit
    ? (maskParam as string).split(',').map((p) => p.trim()).filter(Boolean).map((p) => p.split('.').map(camelCase))
    : pathsOfBody(body);
  const violations: FieldViolation[] = [];
  const kept: string[][] = [];
  for (const path of paths) {
    const head = path[0] as string;
    const known = rules.all.filter((r) => r.v2[0] === head);
    if (known.length === 0) {
      violations.push({ field: explicit ? 'update_mask' : path.join('.'), description: `unknown field "${path.join('.')}"` });
    } else if (rules.inByV2.has(head)) {
      kept.push(path);
    }
  }
  return violations.length > 0 ? { ok: false, violations } : { ok: true, mask: { kind: 'paths', paths: kept } };
}
