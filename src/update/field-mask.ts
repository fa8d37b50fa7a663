import type { FieldViolation } from '../errors/api-error.js';
import type { CompiledRules } from '../mapping/compiled-resource.js';
import { pathKind, step } from '../mapping/rule-paths.js';
import { type Json, camelCase, isObject } from '../json/json-path.js';

/** A path of a PATCH and the body value it takes there (`undefined`: absent, so cleared). */
export interface MaskedField {
  path: string[];
  value: unknown;
}

export type MaskResult = { ok: true; fields: MaskedField[] } | { ok: false; violations: FieldViolation[] };

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The body value at a v2 path, each key read by its json or proto name. */
export function bodyValue(body: Json, path: readonly string[]): unknown {
  let cur: unknown = body;
  for (const segment of path) {
    if (!isObject(cur)) return undefined;
    cur = Object.hasOwn(cur, segment) ? cur[segment] : Object.hasOwn(cur, snake(segment)) ? cur[snake(segment)] : undefined;
  }
  return cur;
}

/**
 * The leaf paths of a body, as the gateway derives a mask from it: nested objects down to their
 * leaves; lists, maps, objects taken whole and `{}` stop there. Unknown keys are violations; output
 * fields are skipped (clients send whole resources back).
 */
function walkBody(body: Json, level: CompiledRules, prefix: string[], out: { fields: MaskedField[]; violations: FieldViolation[] }): void {
  for (const [key, value] of Object.entries(body)) {
    const path = [...prefix, camelCase(key)];
    const c = step(level, path[path.length - 1] as string);
    if (c === 'unknown') out.violations.push({ field: path.join('.'), description: `unknown field "${path.join('.')}"` });
    if (typeof c === 'string') continue;
    if (c.children && isObject(value) && Object.keys(value).length > 0) walkBody(value, c.children, path, out);
    else out.fields.push({ path, value });
  }
}

/**
 * The fields a PATCH changes: `updateMask`/`update_mask` (comma-separated, camel or snake, dotted)
 * names them, `*` names every writable field, and without a mask the keys present in the body do
 * (`""`, `false` and `null` count as present). Unknown mask paths, and unknown body keys when the
 * body is the mask, are violations; output paths are ignored. Returns a result, never throws.
 */
export function parseFieldMask(maskParam: string | undefined, body: Json, rules: CompiledRules): MaskResult {
  const mask = maskParam?.trim() ?? '';
  if (mask === '') {
    const fromBody = { fields: [] as MaskedField[], violations: [] as FieldViolation[] };
    walkBody(body, rules, [], fromBody);
    return fromBody.violations.length > 0 ? { ok: false, violations: fromBody.violations } : { ok: true, fields: fromBody.fields };
  }
  // with a mask the body only supplies values: keys it does not name are ignored, as the gateway does
  const violations: FieldViolation[] = [];
  const paths =
    mask === '*'
      ? [...rules.inByV2.keys()].map((k) => [k])
      : mask
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean)
          .map((p) => p.split('.').map(camelCase));
  const fields: MaskedField[] = [];
  for (const path of paths) {
    const kind = pathKind(rules, path);
    if (kind === 'unknown') violations.push({ field: 'update_mask', description: `unknown field "${path.join('.')}"` });
    else if (kind === 'input') fields.push({ path, value: bodyValue(body, path) });
  }
  return violations.length > 0 ? { ok: false, violations } : { ok: true, fields };
}
