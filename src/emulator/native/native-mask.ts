import { invalidFields } from '../../errors/error-registry.js';
import type { FieldViolation } from '../../errors/api-error.js';
import { isPlainObject } from '../body.js';
import type { Json } from '../store.js';

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function valueAt(body: Json, path: readonly string[]): unknown {
  let cur: unknown = body;
  for (const seg of path) {
    if (!isPlainObject(cur)) return undefined;
    cur = Object.hasOwn(cur, seg) ? cur[seg] : Object.hasOwn(cur, snake(seg)) ? cur[snake(seg)] : undefined;
  }
  return cur;
}

function setAt(target: Json, path: readonly string[], value: unknown): void {
  let cur = target;
  for (const seg of path.slice(0, -1)) {
    const next = cur[seg];
    const obj: Json = isPlainObject(next) ? { ...next } : {};
    cur[seg] = obj;
    cur = obj;
  }
  const leaf = path[path.length - 1] as string;
  if (value === undefined || value === null) delete cur[leaf];
  else cur[leaf] = value;
}

/** The body's leaf paths, as the gateway derives a mask from a body: objects down to their leaves, `{}` and lists whole. */
function leaves(body: Json, prefix: string[], out: string[][]): void {
  for (const [key, value] of Object.entries(body)) {
    const path = [...prefix, camel(key)];
    if (isPlainObject(value) && Object.keys(value).length > 0 && prefix.length < 8) leaves(value, path, out);
    else out.push(path);
  }
}

/**
 * A v2 PATCH applied to the resource as v2 shows it: `update_mask` (camel or snake, dotted, `*` for
 * every writable field) names what changes, or the body's present keys do. Output-only top-level
 * fields are ignored; unknown ones are INVALID_ARGUMENT. Setting one member of a oneof clears the others.
 */
export function applyNativeMask(
  current: Json,
  body: Json,
  maskParam: string,
  opts: { writable: readonly string[]; oneofs?: readonly (readonly string[])[] },
): Json {
  const mask = maskParam.trim();
  let paths: string[][];
  if (mask === '*') paths = opts.writable.map((f) => [f]);
  else if (mask !== '')
    paths = mask
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => p.split('.').map(camel));
  else {
    paths = [];
    leaves(body, [], paths);
  }
  const violations: FieldViolation[] = [];
  const changes: string[][] = [];
  for (const path of paths) {
    const head = path[0] as string;
    if (opts.writable.includes(head)) changes.push(path);
    else if (!(head in current)) violations.push({ field: mask === '' ? path.join('.') : 'update_mask', description: `unknown field "${path.join('.')}"` });
  }
  if (violations.length > 0) throw invalidFields(violations);
  const next: Json = structuredClone(current);
  for (const group of opts.oneofs ?? []) {
    const set = group.find((m) => changes.some((p) => p[0] === m && valueAt(body, p) != null));
    if (set) for (const other of group) if (other !== set) delete next[other];
  }
  for (const path of changes) setAt(next, path, valueAt(body, path));
  return next;
}
