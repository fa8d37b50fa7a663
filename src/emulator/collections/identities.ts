import { Body, isPlainObject, requireName } from '../body.js';
import { type CollectionDef, matchesExact, matchesUidp, requireGroup } from '../collection.js';
import { invalid } from '../grpc-status.js';
import type { IdentityRecord, Json } from '../store.js';
import { formatTimestamp, parseTimestamp } from '../timestamp.js';
import { newChildUid, parentOf } from '../../uidp/uidp.js';

export const SERVICE_PRINCIPALS = [
  'UNKNOWN',
  'COSIGNED',
  'INGESTER',
  'CATALOG_SYNCER',
  'APKO_BUILDER',
  'ENTITLEMENT_SYNCER',
  'TENANT_SCANNER',
  'SEDIMENTOLOGY',
  'SKILLUP',
  'MATERIALIZER',
  'MICROFLOW',
  'GUARDENER',
  'MICROVM',
  'SKILLS',
] as const;

const RELATIONSHIPS = ['claimMatch', 'static', 'servicePrincipal', 'awsIdentity'] as const;

/** The identity's one relationship (a oneof in v1), kept as v1 JSON. */
function relationship(body: Body): Json {
  const present = RELATIONSHIPS.filter((k) => body.has(k));
  if (present.length !== 1) {
    throw invalid('identity must have exactly one of claimMatch, static, servicePrincipal, awsIdentity');
  }
  const key = present[0] as (typeof RELATIONSHIPS)[number];
  if (key === 'servicePrincipal') {
    const names = Object.fromEntries(SERVICE_PRINCIPALS.map((n, i) => [n, i]));
    return { servicePrincipal: body.enumValue('servicePrincipal', names, 'UNKNOWN') };
  }
  const value = body.object(key) as Json;
  if (key === 'claimMatch') checkClaimMatch(value);
  if (key === 'static') checkStatic(value);
  return { [key]: value };
}

function checkClaimMatch(cm: Json): void {
  for (const [k, v] of Object.entries(cm)) {
    if ((k === 'claims' || k === 'claimPatterns') && isPlainObject(v)) continue;
    if (typeof v !== 'string') throw invalid(`invalid value for claimMatch.${k}`);
  }
  const issuer = cm.issuer ?? cm.issuerPattern;
  const subject = cm.subject ?? cm.subjectPattern;
  if (typeof issuer !== 'string' || issuer === '') throw invalid('claimMatch: issuer or issuerPattern is required');
  if (typeof subject !== 'string' || subject === '') throw invalid('claimMatch: subject or subjectPattern is required');
}

function checkStatic(s: Json): void {
  const expiration = s.expiration;
  if (expiration !== undefined && (typeof expiration !== 'string' || parseTimestamp(expiration) === undefined)) {
    throw invalid('invalid value for static.expiration');
  }
}

function fields(body: Body) {
  return {
    name: requireName(body.string('name')),
    description: body.string('description'),
    relationship: relationship(body),
  };
}

export const identities: CollectionDef<IdentityRecord> = {
  name: 'identities',
  path: '/iam/v1/identities',
  capability: 'identity',
  createParent: 'path',
  timestampFields: ['createdAt', 'updatedAt', 'lastSeen'],
  keyOf: (i) => i.id,
  keyFilter: 'id',
  create(json, parent, ctx) {
    requireGroup(ctx, parent);
    return { id: newChildUid(parent), ...fields(new Body(json)), createdAt: ctx.now, updatedAt: ctx.now };
  },
  replace: (json, existing, ctx) => ({
    ...existing,
    ...fields(new Body(json)),
    updatedAt: ctx.now,
  }),
  matches: (i, q) => matchesExact(i.id, q.one('id')) && matchesUidp(i.id, q),
  // A root-level (user) identity belongs to no group: only it and the superuser see it.
  visible: (i, ctx) =>
    parentOf(i.id) === '/' ? ctx.access.caller.kind === 'superuser' || ctx.access.identityUid === i.id : ctx.access.can('identity.list', i.id),
  renderList: render,
  renderWrite: render,
  afterDelete(i, ctx) {
    for (const [id, b] of ctx.store.rolebindings) if (b.identity === i.id) ctx.store.rolebindings.delete(id);
  },
};

function render(i: IdentityRecord) {
  return {
    id: i.id,
    name: i.name,
    description: i.description,
    createdAt: formatTimestamp(i.createdAt),
    updatedAt: formatTimestamp(i.updatedAt),
    ...(i.lastSeen === undefined ? {} : { lastSeen: formatTimestamp(i.lastSeen) }),
    ...i.relationship,
  };
}
