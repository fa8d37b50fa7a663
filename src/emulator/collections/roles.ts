import { Body, requireName } from '../body.js';
import { isCapability } from '../capabilities.js';
import { type CollectionDef, matchesExact, matchesUidp, requireGroup } from '../collection.js';
import { denied, failedPrecondition, invalid } from '../grpc-status.js';
import type { RoleRecord } from '../store.js';
import { newChildUid, newRootUid, parentOf } from '../../uidp/uidp.js';

function fields(body: Body) {
  const capabilities = body.strings('capabilities');
  const unknown = capabilities.find((c) => !isCapability(c));
  if (unknown !== undefined) throw invalid(`unknown capability "${unknown}"`);
  if (capabilities.length === 0) throw invalid('a role needs at least one capability');
  return {
    name: requireName(body.string('name')),
    description: body.string('description'),
    capabilities: [...new Set(capabilities)].sort(),
  };
}

const isBuiltIn = (r: RoleRecord) => parentOf(r.id) === '/';

export const roles: CollectionDef<RoleRecord> = {
  name: 'roles',
  path: '/iam/v1/roles',
  capability: 'roles',
  createParent: 'path',
  keyOf: (r) => r.id,
  keyFilter: 'id',
  create(json, parent, ctx) {
    // Managed roles live at the root; only a seed file may add more of them beside the built-in ones.
    if (parent === '' && ctx.seeding) return { id: newRootUid(), ...fields(new Body(json)) };
    requireGroup(ctx, parent);
    return { id: newChildUid(parent), ...fields(new Body(json)) };
  },
  replace(json, existing) {
    if (isBuiltIn(existing)) throw denied('built-in roles cannot be modified');
    return { id: existing.id, ...fields(new Body(json)) };
  },
  matches: (r, q) =>
    matchesExact(r.id, q.one('id')) && matchesExact(r.name, q.one('name')) && matchesExact(parentOf(r.id), q.one('parent')) && matchesUidp(r.id, q),
  // Built-in roles are readable by every caller.
  visible: (r, ctx) => isBuiltIn(r) || ctx.access.can('roles.list', r.id),
  renderList: render,
  renderWrite: render,
  beforeDelete(r, ctx) {
    if (isBuiltIn(r)) throw denied('built-in roles cannot be deleted');
    for (const b of ctx.store.rolebindings.values()) {
      if (b.role === r.id) throw failedPrecondition('cannot delete role with role bindings');
    }
  },
};

function render(r: RoleRecord) {
  return { id: r.id, name: r.name, description: r.description, capabilities: r.capabilities };
}
