import type { CompiledResource } from '../mapping/compiled-resource.js';

// what a v1 message may begin with that the rendered v2 message already says ("Permission denied: …")
const CODE_WORDS =
  /^(permission denied|not found|invalid argument|already exists|failed precondition|precondition failed|unauthenticated|unavailable|internal|deadline exceeded|unimplemented)\s*:\s*/i;

/**
 * A v1 error text in v2 words: the v1 collection names (`rolebindings`, `account_associations`,
 * `group_invites`) become the v2 ones, and a leading code phrase the v2 prefix would repeat is
 * dropped. Pure; the resource names come from the mappings.
 */
export function inV2Words(message: string, resources: Iterable<CompiledResource>): string {
  let out = message.replace(CODE_WORDS, '');
  let capabilities: CompiledResource['capabilities'] | undefined;
  for (const r of resources) {
    capabilities ??= r.capabilities;
    const v1Name = r.mapping.v1.path.slice(r.mapping.v1.path.lastIndexOf('/') + 1);
    // a collection name, not the family of a capability (`group_invites.create`, handled below)
    if (v1Name !== r.mapping.resource) out = out.replace(new RegExp(`\\b${v1Name}\\b(?!\\.[a-z])`, 'g'), r.mapping.resource);
  }
  // v1 capability names (`groups.create`) become the v2 enum names (`CAP_IAM_GROUPS_CREATE`)
  out = out.replace(/\b[a-z_]+(?:\.[a-z_]+)+\b/g, (name) => capabilities?.toV2.get(name) ?? name);
  return out === '' ? message : out;
}
