export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getPath(obj: Json, path: readonly string[]): unknown {
  let cur: unknown = obj;
  for (const key of path) {
    if (!isObject(cur) || !Object.hasOwn(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** Sets a value at a dotted path, creating the objects on the way (own properties only). */
export function setPath(obj: Json, path: readonly string[], value: unknown): void {
  let cur = obj;
  for (const key of path.slice(0, -1)) {
    const next = Object.hasOwn(cur, key) ? cur[key] : undefined;
    if (isObject(next)) {
      cur = next;
    } else {
      const created: Json = {};
      cur[key] = created;
      cur = created;
    }
  }
  cur[path[path.length - 1] as string] = value;
}

/** Removes the value at a dotted path, if it is there. */
export function deletePath(obj: Json, path: readonly string[]): void {
  const parent = getPath(obj, path.slice(0, -1));
  if (isObject(parent)) delete parent[path[path.length - 1] as string];
}

/** `update_mask` → `updateMask`: protojson accepts proto (snake) names as well as json names. */
export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
