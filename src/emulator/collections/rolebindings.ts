import { Body } from '../body.js';
import { type CollectionDef, type Ctx, isVisible, matchesExact, matchesUidp, requireGroup, requireRoleUsableIn } from '../collection.js';
import { invalid } from '../grpc-status.js';
import type { RoleBindingRecord } from '../store.js';
import { formatTimestamp } from '../timestamp.js';
import { newChildUid, parentOf } from '../../uidp/uidp.js';
import { BUILT_IN_ROLES } from '../capabilities.js';
import { groups } from './groups.js';
import { identities } from './identities.js';
import { roles } from './roles.js';

function fields(body: Body, group: string, ctx: Ctx) {
  const identity = body.string('identity');
  const role = body.string('role');
  if (identity === '') throw invalid('identity is required');
  if (role === '') throw invalid('role is required');
  // a binding may only name an identity the caller can see (another tenant's is "not found")
  const bound = ctx.store.identities.get(identity);
  if (!bound || !isVisible(identities, bound, ctx)) throw invalid(`identity "${identity}" not found`);
  requireRoleUsableIn(ctx, role, group);
  return { identity, role };
}

function builtInRoleUid(role: unknown): unknown {
  return BUILT_IN_ROLES.find((r) => r.name === role)?.id ?? role;
}

export const rolebindings: CollectionDef<RoleBindingRecord> = {
  name: 'rolebindings',
  path: '/iam/v1/rolebindings',
  capability: 'role_bindings',
  createParent: 'path',
  timestampFields: ['createdAt'],
  keyOf: (b) => b.id,
  keyFilter: 'id',
  create(json, parent, ctx) {
    requireGroup(ctx, parent);
    // `group` in the body is deprecated and ignored: the group is always Parent(id).
    return { id: newChildUid(parent), ...fields(new Body(json), parent, ctx), createdAt: ctx.now };
  },
  replace: (json, existing, ctx) => ({ ...existing, ...fields(new Body(json), parentOf(existing.id), ctx) }),
  // Seed files may name a built-in role (`"role": "viewer"`) instead of giving its uid.
  seedBody: (record) => ({ ...record, role: builtInRoleUid(record.role) }),
  matches: (b, q) => matchesExact(b.id, q.one('id')) && matchesUidp(b.id, q),
  // v1 list items are partly hydrated: full group and role objects, the identity's claim match.
  renderList(b, ctx) {
    const group = ctx.store.groups.get(parentOf(b.id));
    const role = ctx.store.roles.get(b.role);
    const identity = ctx.store.identities.get(b.identity);
    const claimMatch = identity?.relationship.claimMatch as Record<string, unknown> | undefined;
    const claim = (k: string) => (typeof claimMatch?.[k] === 'string' ? (claimMatch[k] as string) : '');
    return {
      id: b.id,
      group: group ? groups.renderList(group, ctx) : null,
      identity: b.identity,
      role: role ? roles.renderList(role, ctx) : null,
      email: '',
      claimMatchIssuer: claim('issuer'),
      claimMatchSubject: claim('subject'),
      createdAt: formatTimestamp(b.createdAt),
      emailUnverified: '',
    };
  },
  renderWrite: (b) => ({ id: b.id, identity: b.identity, group: parentOf(b.id), role: b.role }),
};
