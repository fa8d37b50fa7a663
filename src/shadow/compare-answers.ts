import { isObject } from '../json/json-path.js';

export const DIFF_KINDS = ['status', 'count', 'order', 'missing', 'extra', 'type', 'value'] as const;
export type DiffKind = (typeof DIFF_KINDS)[number];

/** One difference between two answers: where (a field path such as `groups[].createTime`) and what kind. */
export interface Difference {
  path: string;
  kind: DiffKind;
  /** the values at the path on each side (absent: the side had none) */
  primary?: unknown;
  secondary?: unknown;
}

export interface ComparedAnswer {
  status: number;
  body: unknown;
}

type Shape = 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean' | 'other';

function shapeOf(v: unknown): Shape {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return t === 'object' || t === 'string' || t === 'number' || t === 'boolean' ? (t as Shape) : 'other';
}

const MAX_DEPTH = 64;

/** Deep equality without recursion, for what lies past MAX_DEPTH (hostile bodies nest thousands deep). */
function sameValue(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop() as [unknown, unknown];
    if (x === y) continue;
    if (shapeOf(x) !== shapeOf(y) || typeof x !== 'object' || x === null || y === null) return false;
    const kx = Object.keys(x);
    const ky = Object.keys(y as object);
    if (kx.length !== ky.length) return false;
    for (const k of kx) {
      if (!Object.hasOwn(y as object, k)) return false;
      stack.push([(x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]]);
    }
  }
  return true;
}

/** JSON text of a value, or undefined when it is too deep to write. */
function textOf(v: unknown): string | undefined {
  try {
    return JSON.stringify(v);
  } catch {
    return undefined;
  }
}

class Collector {
  readonly out: Difference[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly ignore: readonly string[]) {}

  ignored(path: string): boolean {
    return this.ignore.some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[]`));
  }

  add(d: Difference): void {
    const key = `${d.path}\0${d.kind}`;
    if (this.seen.has(key) || this.ignored(d.path)) return;
    this.seen.add(key);
    this.out.push(d);
  }
}

const child = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);
const keyed = (items: unknown[]) => items.every((i) => isObject(i) && typeof i.uid === 'string');

function compareArrays(a: unknown[], b: unknown[], path: string, c: Collector, depth: number): void {
  const items = `${path}[]`;
  if (a.length > 0 && b.length > 0 && keyed(a) && keyed(b)) {
    // list answers are matched item by item on uid
    const byUid = (list: unknown[]) => new Map(list.map((i) => [(i as { uid: string }).uid, i]));
    const left = byUid(a);
    const right = byUid(b);
    if (a.length !== b.length) c.add({ path, kind: 'count', primary: a.length, secondary: b.length });
    for (const uid of left.keys()) if (!right.has(uid)) c.add({ path: items, kind: 'missing', primary: uid });
    for (const uid of right.keys()) if (!left.has(uid)) c.add({ path: items, kind: 'extra', secondary: uid });
    const common = [...left.keys()].filter((u) => right.has(u));
    const order = [...right.keys()].filter((u) => left.has(u));
    if (common.some((u, i) => u !== order[i])) c.add({ path, kind: 'order' });
    for (const uid of common) compareValues(left.get(uid), right.get(uid), items, c, depth + 1);
    return;
  }
  if (a.length !== b.length) {
    c.add({ path, kind: 'count', primary: a.length, secondary: b.length });
    return;
  }
  const sa = a.map(textOf);
  const sb = b.map(textOf);
  const written = [...sa, ...sb].every((t) => t !== undefined);
  if (written && sa.every((s, i) => s === sb[i])) return;
  if (written && [...(sa as string[])].sort().join('\0') === [...(sb as string[])].sort().join('\0')) {
    c.add({ path, kind: 'order' });
    return;
  }
  for (let i = 0; i < a.length; i += 1) compareValues(a[i], b[i], items, c, depth + 1);
}

function compareValues(a: unknown, b: unknown, path: string, c: Collector, depth: number): void {
  if (c.ignored(path) && path !== '') return;
  const sa = shapeOf(a);
  const sb = shapeOf(b);
  if (sa !== sb) {
    c.add({ path, kind: 'type', primary: a, secondary: b });
    return;
  }
  if (depth > MAX_DEPTH) {
    if (!sameValue(a, b)) c.add({ path, kind: 'value', primary: a, secondary: b });
    return;
  }
  if (sa === 'array') {
    compareArrays(a as unknown[], b as unknown[], path, c, depth);
    return;
  }
  if (sa === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const key of Object.keys(x)) {
      const p = child(path, key);
      if (!Object.hasOwn(y, key)) c.add({ path: p, kind: 'missing', primary: x[key] });
      // a page token is opaque: only whether there is a next page is compared
      else if (path === '' && key === 'nextPageToken') {
        if ((x[key] === '' || x[key] === undefined) !== (y[key] === '' || y[key] === undefined))
          c.add({ path: p, kind: 'value', primary: x[key], secondary: y[key] });
      } else compareValues(x[key], y[key], p, c, depth + 1);
    }
    for (const key of Object.keys(y)) if (!Object.hasOwn(x, key)) c.add({ path: child(path, key), kind: 'extra', secondary: y[key] });
    return;
  }
  if (a !== b) c.add({ path: path === '' ? '(body)' : path, kind: 'value', primary: a, secondary: b });
}

/**
 * Compares two answers to the same request: the status (and the error `code` when both are errors),
 * then the JSON bodies field by field, list items matched on `uid`. One difference per field path
 * and kind; paths under `ignore` (and below them) are left out. Pure.
 */
export function compareAnswers(primary: ComparedAnswer, secondary: ComparedAnswer, ignore: readonly string[] = []): Difference[] {
  const c = new Collector(ignore);
  if (primary.status !== secondary.status) {
    c.add({ path: 'status', kind: 'status', primary: primary.status, secondary: secondary.status });
    return c.out;
  }
  if (primary.status >= 400) {
    const code = (b: unknown) => (isObject(b) ? b.code : undefined);
    if (code(primary.body) !== code(secondary.body)) c.add({ path: 'code', kind: 'value', primary: code(primary.body), secondary: code(secondary.body) });
    return c.out;
  }
  compareValues(primary.body, secondary.body, '', c, 0);
  return c.out;
}
