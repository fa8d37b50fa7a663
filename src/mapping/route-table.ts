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
  /** each prefix's resources by their path segment */
  private readonly byPrefix = new Map<string, Map<string, CompiledResource>>();
  readonly prefixes: readonly string[];
  /** the prefixes with their trailing `/`, as a path starts with them */
  private readonly slashed: readonly string[];

  constructor(resources: readonly CompiledResource[]) {
    for (const r of resources) {
      const segments = this.byPrefix.get(r.prefix) ?? new Map<string, CompiledResource>();
      segments.set(r.segment, r);
      this.byPrefix.set(r.prefix, segments);
    }
    this.prefixes = [...this.byPrefix.keys()];
    this.slashed = this.prefixes.map((p) => `${p}/`);
  }

  match(url: string): V2Route | undefined {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const at = this.slashed.findIndex((p) => path.startsWith(p));
    if (at < 0) return undefined;
    const tail = path.slice((this.slashed[at] as string).length);
    const end = tail.search(/[:/]/);
    const resource = this.byPrefix.get(this.prefixes[at] as string)?.get(end < 0 ? tail : tail.slice(0, end));
    if (!resource) return undefined;
    const rest = end < 0 ? '' : tail.slice(end);
    if (rest === '') return { kind: 'collection', resource };
    if (rest.startsWith(':')) return { kind: 'verb', resource, verb: rest.slice(1), uid: undefined };
    let uid = rest.slice(1);
    // most uids arrive unescaped: nothing to decode
    if (uid.includes('%')) {
      try {
        uid = decodeURIComponent(uid);
      } catch {
        return undefined;
      }
    }
    const colon = uid.lastIndexOf(':');
    if (colon >= 0) return { kind: 'verb', resource, verb: uid.slice(colon + 1), uid: uid.slice(0, colon) };
    return { kind: 'item', resource, uid };
  }
}
