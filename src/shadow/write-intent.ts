import { isObject, type Json } from '../json/json-path.js';
import type { CompiledResource, CompiledRules } from '../mapping/compiled-resource.js';
import { step } from '../mapping/rule-paths.js';
import { bodyValue, parseFieldMask } from '../update/field-mask.js';
import { type ComparedAnswer, compareAnswers, type Difference } from './compare-answers.js';

export type WriteOperation = 'create' | 'update' | 'delete';

/** What a write asked for: each field it set (a path of the resource) and the value it gave. */
export interface WriteIntent {
  fields: { path: string[]; value: unknown }[];
  /** the top-level fields it may change: those it named, and those shown from the same v1 field (a binding's `role` for its `roleUid`) */
  touched: string[];
}

/** The top-level v2 fields the named ones may change: themselves, and every field read from the same v1 field. */
function touchedBy(rules: CompiledRules, named: readonly string[]): string[] {
  const v1 = new Set(rules.all.filter((c) => named.includes(c.v2[0] as string)).map((c) => c.v1[0] as string));
  return [...new Set([...named, ...rules.all.filter((c) => v1.has(c.v1[0] as string)).map((c) => c.v2[0] as string)])];
}

/** Whether a path names a field the resource shows (not an `input` field, taken and never shown). */
function shown(rules: CompiledRules, path: readonly string[]): boolean {
  let level: CompiledRules | undefined = rules;
  for (const segment of path) {
    if (!level) return true;
    const c = step(level, segment);
    if (typeof c === 'string') return false;
    if (c.rule.input) return false;
    level = c.children;
  }
  return true;
}

/**
 * The fields a write set, read as the v2 surface defines them: a create's body leaves, an update's
 * mask paths (or, without a mask, the body's leaves), each with the body's value there.
 * Fields the resource never shows (`input`), never takes (`output`), or does not know are left out:
 * a read cannot tell what became of them. Null for a body it cannot read (the write was refused).
 */
export function intentOf(resource: CompiledResource, operation: WriteOperation, body: unknown, mask: string): WriteIntent | null {
  if (operation === 'delete') return { fields: [], touched: [] };
  if (!isObject(body)) return null;
  const { rules } = resource;
  // a create's fields are its body's leaves, as an update's without a mask
  const parsed = parseFieldMask(operation === 'create' ? '' : mask, body as Json, rules);
  if (!parsed.ok) return null;
  return {
    fields: parsed.fields.filter((f) => shown(rules, f.path)).map((f) => ({ path: f.path, value: f.value })),
    touched: touchedBy(rules, [...new Set(parsed.fields.map((f) => f.path[0] as string))]),
  };
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

/**
 * A value as a write and a read can both say it: a field at its default (`""`, `0`, `false`, `[]`,
 * `{}`, null, an enum's `…_UNSPECIFIED`) is absent, a time is its instant, a number is its text
 * (proto JSON writes 64-bit integers as strings), a list of scalars a set. REST answers and gRPC's
 * proto JSON then read alike.
 */
export function plainValue(v: unknown, depth = 0): unknown {
  if (depth > 64) return v;
  if (v === null || v === '' || v === 0 || v === false) return undefined;
  // a list of scalars is read as a set (capabilities come back sorted)
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) {
    const items = v.map((x) => plainValue(x, depth + 1) ?? null);
    return items.length === 0 ? undefined : items.sort((a, b) => String(a).localeCompare(String(b)));
  }
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') {
    if (v.endsWith('_UNSPECIFIED')) return undefined;
    if (TIMESTAMP.test(v)) {
      const at = Date.parse(v);
      return Number.isNaN(at) ? v : new Date(at).toISOString();
    }
    return v;
  }
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map((x) => plainValue(x, depth + 1) ?? null);
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const p = plainValue(x, depth + 1);
      if (p !== undefined) out[k] = p;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v;
}

const NOT_FOUND = 404;

/**
 * The intent check of a write, against the resource read back from the side that served it: each
 * field the write set holds what it asked for; an update's other fields are as they were before it
 * (when its pre-image was read; `moving` fields, such as its update time, may change); a deleted
 * resource is not found. Differences name the field.
 */
export function checkIntent(
  operation: WriteOperation,
  intent: WriteIntent,
  read: ComparedAnswer,
  opts: { before?: unknown; moving: readonly string[]; ignore: readonly string[] },
): Difference[] {
  if (operation === 'delete') return read.status === NOT_FOUND ? [] : [{ path: 'status', kind: 'status', primary: NOT_FOUND, secondary: read.status }];
  if (read.status !== 200) return [{ path: 'status', kind: 'status', primary: 200, secondary: read.status }];
  const stored = read.body as Json;
  const out: Difference[] = [];
  const ignored = (path: string) => opts.ignore.some((p) => path === p || path.startsWith(`${p}.`));
  for (const f of intent.fields) {
    const path = f.path.join('.');
    if (ignored(path)) continue;
    const asked = plainValue(f.value);
    const got = plainValue(isObject(stored) ? bodyValue(stored, f.path) : undefined);
    if (JSON.stringify(asked) === JSON.stringify(got)) continue;
    out.push({ path, kind: got === undefined ? 'missing' : asked === undefined ? 'extra' : 'value', primary: f.value, secondary: got });
  }
  if (operation !== 'update' || !isObject(opts.before) || !isObject(stored)) return out;
  // the fields it did not name: as before (compared as the shadow compares, on their plain values)
  const named = new Set([...intent.fields.map((f) => f.path[0] as string), ...intent.touched]);
  const rest = (body: Json) =>
    Object.fromEntries(
      Object.entries(body)
        .filter(([k]) => !named.has(k) && !opts.moving.includes(k) && !ignored(k))
        .map(([k, v]) => [k, plainValue(v)])
        .filter(([, v]) => v !== undefined),
    );
  return [...out, ...compareAnswers({ status: 200, body: rest(opts.before) }, { status: 200, body: rest(stored) }, opts.ignore)];
}

/**
 * The answer check: the resource read back equals what the write answered (on their plain values,
 * so a gRPC answer reads like the REST read), paths under `ignore` left out.
 */
export function checkAnswer(answer: unknown, read: ComparedAnswer, ignore: readonly string[]): Difference[] {
  if (read.status !== 200) return [{ path: 'status', kind: 'status', primary: 200, secondary: read.status }];
  return compareAnswers({ status: 200, body: plainValue(answer) ?? {} }, { status: 200, body: plainValue(read.body) ?? {} }, ignore);
}

/** The fields of a resource that move on their own with each write: its output times (an update time). */
export function movingFields(resource: CompiledResource): string[] {
  return resource.rules.all.filter((c) => c.rule.output && c.rule.type === 'timestamp' && c.v2.length === 1).map((c) => c.v2[0] as string);
}

/** The fields a create answers with and no read shows again (an invite's code): left out of the answer check. */
export function answerOnlyFields(resource: CompiledResource): string[] {
  return resource.rules.all.filter((c) => c.rule.created && c.v2.length === 1).map((c) => c.v2[0] as string);
}

/** What tells one state of a resource from the next, when it has one: its update time, or its etag. */
export function versionOf(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const v = body.updateTime ?? body.etag;
  return typeof v === 'string' && v !== '' ? (plainValue(v) as string) : undefined;
}
