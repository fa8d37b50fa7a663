import type { CompiledResource } from './compiled-resource.js';

export type V2Route =
  | { kind: 'collection'; resource: CompiledResource }
  | { kind: 'item'; resource: CompiledResource; uid: string }
  | { kind: 'verb'; resource: CompiledResource; verb: string; uid: string | undefined };

/**
 * The v2 routes, compiled once from the mappings and then only matched. `{uid=**}` takes uids with
 * `/` in them; a trailing `:verb` is a custom method, never part of a uid.
 */
export class RouteTable {
  private readonly byPath = new Map<string, CompiledResource>();
  readonly prefixes: readonly string[];

  constructor(resources: readonly CompiledResource[]) {
    for (const r of resources) this.byPath.set(`${r.prefix}/${r.segment}`, r);
    this.prefixes = [...new Set(resources.map((r) => r.prefix))];
  }

  match(url: string): V2Route | undefined {
    const path = url.split('?', 1)[0] ?? '';
    const prefix = this.prefixes.find((p) => path.startsWith(`${p}/`));
    if (prefix === undefined) return undefined;
    const tail = path.slice(prefix.length + 1);
    const end = tail.search(/[:/]/);
    const segment = end < 0 ? tail : tail.slice(0, end);
    const resource = this.byPath.get(`${prefix}/${segment}`);
    if (!resource) return undefined;
    const rest = end < 0 ? '' : tail.slice(end);
    if (rest === '') return { kind: 'collection', resource };
    if (rest.startsWith(':')) return { kind: 'verb', resource, verb: rest.slice(1), uid: undefined };
    let uid: string;
    try {
      uid = decodeURIComponent(rest.slice(1));
    } catch {
      return undefined;
    }
    const colon = uid.lastIndexOf(':');
    if (colon >= 0) return { kind: 'verb', resource, verb: uid.slice(colon + 1), uid: uid.slice(0, colon) };
    return { kind: 'item', resource, uid };
  }
}
