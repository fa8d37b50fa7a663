import { Body, requireName } from '../body.js';
import { type CollectionDef, matchesExact, matchesUidp, requireGroup } from '../collection.js';
import { BUILT_IN_ROLES } from '../capabilities.js';
import { failedPrecondition, invalid } from '../grpc-status.js';
import type { GroupRecord } from '../store.js';
import { isAncestor, isUidp, newChildUid, newRootUid, parentOf } from '../../uidp/uidp.js';

export const ORG_KINDS = {
  ORG_KIND_UNSPECIFIED: 0,
  ORG_KIND_STARTER: 1,
  ORG_KIND_CUSTOMER: 2,
  ORG_KIND_DEV: 3,
  ORG_KIND_INFRA: 4,
  ORG_KIND_AWS_MARKETPLACE: 5,
} as const;

function fields(body: Body): Omit<GroupRecord, 'id'> {
  const record: Omit<GroupRecord, 'id'> = {
    name: requireName(body.string('name')),
    description: body.string('description'),
    resourceLimits: body.int32Map('resourceLimits'),
    verified: body.bool('verified'),
  };
  if (body.has('kind')) record.kind = body.enumValue('kind', ORG_KINDS, 'ORG_KIND_UNSPECIFIED');
  return record;
}

const hasDescendant = (map: Map<string, unknown>, uid: string) => {
  for (const key of map.keys()) if (isAncestor(uid, key)) return true;
  return false;
};

export const groups: CollectionDef<GroupRecord> = {
  name: 'groups',
  path: '/iam/v1/groups',
  capability: 'groups',
  createParent: 'path',
  rootCreate: true,
  keyOf: (g) => g.id,
  keyFilter: 'id',
  create(json, parent, ctx) {
    if (parent !== '') {
      if (!isUidp(parent)) throw invalid(`invalid parent "${parent}"`);
      requireGroup(ctx, parent);
    }
    return { id: parent === '' ? newRootUid() : newChildUid(parent), ...fields(new Body(json)) };
  },
  replace: (json, existing) => ({ id: existing.id, ...fields(new Body(json)) }),
  matches: (g, q) => matchesExact(g.id, q.one('id')) && matchesExact(g.name, q.one('name')) && matchesUidp(g.id, q),
  renderList: render,
  renderWrite: render,
  authorizeCreate(g, ctx) {
    // Any authenticated caller may open a new organization; sub-groups need groups.create above them.
    if (parentOf(g.id) !== '/') ctx.access.require('groups.create', g.id);
  },
  afterCreate(g, ctx) {
    const owner = BUILT_IN_ROLES.find((r) => r.name === 'owner');
    const identity = ctx.access.identityUid;
    if (parentOf(g.id) !== '/' || !owner || !identity) return;
    const id = newChildUid(g.id);
    ctx.store.rolebindings.set(id, { id, identity, role: owner.id, createdAt: ctx.now });
  },
  beforeDelete(g, ctx) {
    if (hasDescendant(ctx.store.repos, g.id)) {
      throw failedPrecondition('cannot delete group with child repos');
    }
    if (hasDescendant(ctx.store.groups, g.id)) {
      throw failedPrecondition('cannot delete group with child groups');
    }
  },
  afterDelete(g, ctx) {
    // The IAM resources that live under the group go with it.
    const { store } = ctx;
    for (const map of [store.identities, store.roles, store.rolebindings, store.identityProviders, store.group_invites, store.advisories] as Map<
      string,
      unknown
    >[]) {
      for (const key of [...map.keys()]) if (isAncestor(g.id, key)) map.delete(key);
    }
    store.account_associations.delete(g.id);
  },
};

function render(g: GroupRecord) {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    resourceLimits: g.resourceLimits,
    verified: g.verified,
    ...(g.kind === undefined ? {} : { kind: g.kind }),
  };
}
