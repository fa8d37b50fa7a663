import type { MaskedField } from './field-mask.js';

const startsWith = (path: readonly string[], prefix: readonly string[]) => prefix.length <= path.length && prefix.every((s, i) => path[i] === s);

/**
 * The v2 paths a PATCH must clear because it sets another member of their oneof (an identity's
 * relationship, `issuer` vs `issuerPattern`): v1 replaces whole records and refuses two members.
 * Members the PATCH itself sets are left alone.
 */
export function oneofSiblings(oneofs: readonly (readonly string[])[], fields: readonly MaskedField[]): string[][] {
  const set = fields.filter((f) => f.value !== undefined && f.value !== null).map((f) => f.path);
  const clear: string[][] = [];
  for (const group of oneofs) {
    const members = group.map((m) => m.split('.'));
    if (!members.some((m) => set.some((p) => startsWith(p, m)))) continue;
    for (const m of members) {
      if (!set.some((p) => startsWith(p, m) || startsWith(m, p))) clear.push(m);
    }
  }
  return clear;
}
