import { randomBytes } from 'node:crypto';
import { Body, isPlainObject } from '../body.js';
import { type CollectionDef, type Ctx, matchesExact, requireGroup, requireRoleUsableIn } from '../collection.js';
import { invalid } from '../grpc-status.js';
import type { GroupInviteRecord } from '../store.js';
import { formatTimestamp, parseDurationMs } from '../timestamp.js';
import { newChildUid, parentOf } from '../../uidp/uidp.js';
import { roles } from './roles.js';

function roleObject(roleUid: string, ctx: Ctx) {
  const role = ctx.store.roles.get(roleUid);
  return role ? roles.renderList(role, ctx) : null;
}

export const groupInvites: CollectionDef<GroupInviteRecord> = {
  name: 'group_invites',
  path: '/iam/v1/group_invites',
  capability: 'group_invites',
  createParent: 'path',
  timestampFields: ['expiration', 'createdAt'],
  keyOf: (i) => i.id,
  keyFilter: 'id',
  create(json, parent, ctx) {
    requireGroup(ctx, parent);
    const body = new Body(json);
    const ttlText = body.string('ttl');
    const ttl = parseDurationMs(ttlText);
    if (ttl === undefined || ttl <= 0) throw invalid(`ttl must be a positive duration such as "86400s", got "${ttlText}"`);
    const role = body.string('role');
    if (role === '') throw invalid('role is required');
    requireRoleUsableIn(ctx, role, parent);
    return {
      id: newChildUid(parent),
      role,
      email: body.string('email'),
      singleUse: body.bool('singleUse'),
      keyId: randomBytes(8).toString('hex'),
      code: randomBytes(24).toString('base64url'),
      expiration: ctx.now + ttl,
      createdAt: ctx.now,
    };
  },
  // Seed records are stored invites: a role object or uid, and an expiration instead of a ttl.
  seedBody: (record) => ({
    ttl: '604800s',
    ...record,
    role: isPlainObject(record.role) ? record.role.id : record.role,
  }),
  matches: (i, q) => matchesExact(parentOf(i.id), q.one('group')) && matchesExact(i.id, q.one('id')) && matchesExact(i.keyId, q.one('key_id')),
  renderList: (i, ctx) => ({
    id: i.id,
    expiration: formatTimestamp(i.expiration),
    keyId: i.keyId,
    role: roleObject(i.role, ctx),
    email: i.email,
    createdAt: formatTimestamp(i.createdAt),
    singleUse: i.singleUse,
  }),
  // The create answer is the only place the code is ever shown.
  renderWrite: (i, ctx) => ({
    id: i.id,
    expiration: formatTimestamp(i.expiration),
    keyId: i.keyId,
    role: roleObject(i.role, ctx),
    code: i.code,
  }),
};
