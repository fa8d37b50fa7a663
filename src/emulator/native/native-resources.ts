import type { FieldViolation } from '../../errors/api-error.js';
import { parentOf } from '../../uidp/uidp.js';
import { isPlainObject, NAME_PATTERN } from '../body.js';
import { v1Capability, v2Capability } from '../capabilities.js';
import { type Ctx, isVisible } from '../collection.js';
import { accountAssociations } from '../collections/account-associations.js';
import { advisories } from '../collections/advisories.js';
import { groupInvites } from '../collections/group-invites.js';
import { groups } from '../collections/groups.js';
import { identities, SERVICE_PRINCIPALS } from '../collections/identities.js';
import { identityProviders } from '../collections/identity-providers.js';
import { repos } from '../collections/repos.js';
import { rolebindings } from '../collections/rolebindings.js';
import { roles } from '../collections/roles.js';
import { tags } from '../collections/tags.js';
import { Query } from '../query.js';
import { timesOf } from '../record-times.js';
import type {
  AccountAssociationRecord,
  AdvisoryRecord,
  GroupInviteRecord,
  GroupRecord,
  IdentityProviderRecord,
  IdentityRecord,
  Json,
  RepoRecord,
  RoleBindingRecord,
  RoleRecord,
  TagRecord,
} from '../store.js';
import { parseTimestamp } from '../timestamp.js';
import type { NativeResource } from './native-resource.js';

// v2 timestamps always carry milliseconds.
const ts = (ms: number) => new Date(ms).toISOString();
const reformat = (v: unknown) => (typeof v === 'string' && parseTimestamp(v) !== undefined ? ts(parseTimestamp(v) as number) : v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function required(v2: Json, fields: readonly string[]): FieldViolation[] {
  return fields.filter((f) => v2[f] === undefined || v2[f] === null || v2[f] === '').map((field) => ({ field, description: 'is required' }));
}

/** An identity provider's OIDC client: nobody signs in through one without its issuer and client id. */
function oidcViolations(oidc: unknown): FieldViolation[] {
  if (oidc === undefined || oidc === null || typeof oidc !== 'object') return [];
  return required(oidc as Json, ['issuer', 'clientId']).map((v) => ({ ...v, field: `oidc.${v.field}` }));
}

function named(v2: Json): FieldViolation[] {
  // a missing name fails the name's rule too, as the service says of an empty create
  return typeof v2.name === 'string' && NAME_PATTERN.test(v2.name) ? [] : [{ field: 'name', description: 'must match the pattern ^[a-z0-9 ._-]{1,}$' }];
}

function times(ctx: Ctx, name: Parameters<typeof timesOf>[1], key: string): Json {
  const t = timesOf(ctx.store, name, key);
  return { createTime: ts(t.created), updateTime: ts(t.updated) };
}

// ---- groups ----
const groupView = (g: GroupRecord, ctx: Ctx): Json => ({
  uid: g.id,
  name: g.name,
  description: g.description,
  resourceLimits: g.resourceLimits,
  verified: g.verified,
  ...(g.kind === undefined ? {} : { kind: g.kind }),
  ...times(ctx, 'groups', g.id),
});

// ---- identities ----
const SP_PREFIX = 'SERVICE_PRINCIPAL_';
const RELATIONSHIPS = ['claimMatch', 'staticKeys', 'servicePrincipal', 'awsIdentity'] as const;

function relationshipView(rel: Json): Json {
  if (isPlainObject(rel.static)) {
    const { expiration, ...rest } = rel.static;
    return { staticKeys: { ...rest, ...(expiration === undefined ? {} : { expirationTime: reformat(expiration) }) } };
  }
  if (typeof rel.servicePrincipal === 'string') {
    return { servicePrincipal: rel.servicePrincipal === 'UNKNOWN' ? `${SP_PREFIX}UNSPECIFIED` : `${SP_PREFIX}${rel.servicePrincipal}` };
  }
  return rel;
}

function relationshipRecord(v2: Json): Json {
  if (isPlainObject(v2.staticKeys)) {
    const { expirationTime, ...rest } = v2.staticKeys;
    return { static: { ...rest, ...(expirationTime === undefined ? {} : { expiration: expirationTime }) } };
  }
  if (v2.servicePrincipal !== undefined) {
    const sp = String(v2.servicePrincipal);
    const bare = sp === `${SP_PREFIX}UNSPECIFIED` ? 'UNKNOWN' : sp.startsWith(SP_PREFIX) ? sp.slice(SP_PREFIX.length) : sp;
    return { servicePrincipal: bare };
  }
  if (v2.claimMatch !== undefined) return { claimMatch: v2.claimMatch };
  if (v2.awsIdentity !== undefined) return { awsIdentity: v2.awsIdentity };
  return {};
}

const identityView = (i: IdentityRecord): Json => ({
  uid: i.id,
  name: i.name,
  description: i.description,
  ...(i.lastSeen === undefined ? {} : { lastSeenTime: ts(i.lastSeen) }),
  createTime: ts(i.createdAt),
  updateTime: ts(i.updatedAt),
  ...relationshipView(i.relationship),
});

function identityViolations(v2: Json): FieldViolation[] {
  const out = named(v2);
  const present = RELATIONSHIPS.filter((k) => v2[k] !== undefined && v2[k] !== null);
  if (present.length !== 1) {
    out.push({ field: 'claimMatch', description: `exactly one of ${RELATIONSHIPS.join(', ')} is required` });
    return out;
  }
  if (present[0] === 'servicePrincipal') {
    const sp = String(v2.servicePrincipal);
    const bare = sp.startsWith(SP_PREFIX) ? sp.slice(SP_PREFIX.length) : sp;
    if (bare !== 'UNSPECIFIED' && !(SERVICE_PRINCIPALS as readonly string[]).includes(bare)) {
      out.push({ field: 'servicePrincipal', description: `unknown service principal "${sp}"` });
    }
  }
  if (present[0] === 'claimMatch') {
    const cm = v2.claimMatch;
    if (!isPlainObject(cm)) out.push({ field: 'claimMatch', description: 'must be an object' });
    else {
      if (!str(cm.issuer) && !str(cm.issuerPattern)) out.push({ field: 'claimMatch.issuer', description: 'issuer or issuerPattern is required' });
      if (!str(cm.subject) && !str(cm.subjectPattern)) out.push({ field: 'claimMatch.subject', description: 'subject or subjectPattern is required' });
    }
  }
  return out;
}

const RELATIONSHIP_TYPES: Record<string, string | undefined> = {
  RELATIONSHIP_TYPE_UNSPECIFIED: undefined,
  RELATIONSHIP_TYPE_CLAIM_MATCH: 'claimMatch',
  RELATIONSHIP_TYPE_STATIC: 'staticKeys',
  RELATIONSHIP_TYPE_AWS_IDENTITY: 'awsIdentity',
  RELATIONSHIP_TYPE_SERVICE_PRINCIPAL: 'servicePrincipal',
};

// ---- roles ----
const roleView = (r: RoleRecord, ctx: Ctx): Json => ({
  uid: r.id,
  name: r.name,
  description: r.description,
  capabilities: r.capabilities.map(v2Capability),
  ...times(ctx, 'roles', r.id),
});

function roleViolations(v2: Json): FieldViolation[] {
  const out = named(v2);
  const caps = v2.capabilities;
  if (!Array.isArray(caps) || caps.length === 0) out.push({ field: 'capabilities', description: 'at least one capability is required' });
  else {
    const unknown = caps.find((c) => typeof c !== 'string' || v1Capability(c) === undefined);
    if (unknown !== undefined) out.push({ field: 'capabilities', description: `unknown capability ${JSON.stringify(unknown)}` });
  }
  return out;
}

// ---- role bindings: hydrated from the store, as the caller may see it ----
function bindingView(b: RoleBindingRecord, ctx: Ctx): Json {
  const group = ctx.store.groups.get(parentOf(b.id));
  const role = ctx.store.roles.get(b.role);
  const identity = ctx.store.identities.get(b.identity);
  const seen = identity !== undefined && isVisible(identities, identity, ctx);
  const cm = identity && isPlainObject(identity.relationship.claimMatch) ? identity.relationship.claimMatch : {};
  return {
    uid: b.id,
    identity: {
      uid: b.identity,
      name: seen ? identity.name : '',
      description: seen ? identity.description : '',
      subject: str(cm.subject),
      issuer: str(cm.issuer),
    },
    group: { uid: parentOf(b.id), name: group?.name ?? '', description: group?.description ?? '' },
    role: { uid: b.role, name: role?.name ?? '', description: role?.description ?? '' },
    createTime: ts(b.createdAt),
  };
}

// ---- identity providers ----
function idpView(p: IdentityProviderRecord, ctx: Ctx): Json {
  const out: Json = { uid: p.id, name: p.name, description: p.description, defaultRole: p.defaultRole };
  if (p.oidc) {
    const { clientSecret: _never, ...visible } = p.oidc;
    out.oidc = visible;
  }
  return { ...out, ...times(ctx, 'identityProviders', p.id) };
}

// ---- account associations: keyed by their group ----
const PROVIDERS = ['amazon', 'google', 'chainguard', 'azure', 'github'] as const;
const associationView = (a: AccountAssociationRecord, ctx: Ctx): Json => ({
  uid: a.group,
  name: a.name,
  description: a.description,
  ...a.providers,
  ...times(ctx, 'account_associations', a.group),
});

// ---- group invites ----
function inviteRole(roleUid: string, ctx: Ctx): Json {
  const role = ctx.store.roles.get(roleUid);
  return role ? { role: { uid: role.id, name: role.name, description: role.description, capabilities: role.capabilities.map(v2Capability) } } : {};
}
const inviteView = (i: GroupInviteRecord, ctx: Ctx): Json => ({
  uid: i.id,
  roleUid: i.role,
  ...inviteRole(i.role, ctx),
  email: i.email,
  expirationTime: ts(i.expiration),
  singleUse: i.singleUse,
  keyId: i.keyId,
  createTime: ts(i.createdAt),
});

// ---- repos ----
const TIER_PREFIX = 'CATALOG_TIER_';
function renameIn(list: unknown, from: string, to: string): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((item) => {
    if (!isPlainObject(item) || !(from in item)) return item;
    const { [from]: value, ...rest } = item;
    return { ...rest, [to]: value };
  });
}
function repoView(r: RepoRecord, ctx: Ctx): Json {
  const f = r.fields;
  const out: Json = {
    uid: r.id,
    name: f.name,
    description: f.description,
    catalogTier: f.catalogTier === 'UNKNOWN' ? `${TIER_PREFIX}UNSPECIFIED` : `${TIER_PREFIX}${String(f.catalogTier)}`,
    bundles: f.bundles,
    aliases: f.aliases,
    activeTags: f.activeTags,
  };
  if (isPlainObject(f.sync_config)) {
    const { expiration, syncApks: _deprecated, ...rest } = f.sync_config;
    out.sync_config = { ...rest, ...(expiration === undefined ? {} : { expirationTime: reformat(expiration) }) };
  }
  if (isPlainObject(f.customOverlay)) {
    const overlay = { ...f.customOverlay };
    if (isPlainObject(overlay.accounts)) {
      const accounts = { ...overlay.accounts };
      accounts.users = renameIn(accounts.users, 'userName', 'username');
      accounts.groups = renameIn(accounts.groups, 'groupName', 'groupname');
      overlay.accounts = accounts;
    }
    out.customOverlay = overlay;
  }
  // a repo's history starts when it was created; a replace moves updateTime
  const t = timesOf(ctx.store, 'repos', r.id);
  return { ...out, createTime: ts(r.createTime), updateTime: ts(t.updated > t.created ? t.updated : r.createTime) };
}

// ---- tags ----
const tagView = (t: TagRecord): Json => ({
  uid: t.id,
  name: t.name,
  digest: t.digest,
  updateTime: ts(t.lastUpdated),
  deprecated: t.deprecated,
  bundles: t.bundles,
});
const TAG_FORMS: [param: string, pattern: RegExp][] = [
  ['include_referrers', /^sha256-/],
  ['include_dates', /-20\d{6}$/],
  ['include_epochs', /-r\d+$/],
];

// ---- advisories ----
const REVIEW_PREFIX = 'REVIEW_STATE_';
function eventView(e: Json): Json | undefined {
  if ('componentLocationChanged' in e) return undefined; // no v2 event type
  const { id, timestamp, status, ...rest } = e;
  const out: Json = { uid: id, createTime: reformat(timestamp) };
  out.reviewState = status === 'UNKNOWN' || status === undefined ? `${REVIEW_PREFIX}UNSPECIFIED` : `${REVIEW_PREFIX}${String(status)}`;
  for (const [k, v] of Object.entries(rest)) out[k] = v;
  if (isPlainObject(out.detection) && isPlainObject(out.detection.scanv1)) {
    const { subpackageName, componentName, ...scan } = out.detection.scanv1;
    out.detection = {
      ...out.detection,
      scanv1: {
        ...scan,
        ...(subpackageName === undefined ? {} : { subpackage: subpackageName }),
        ...(componentName === undefined ? {} : { component: componentName }),
      },
    };
  }
  if (isPlainObject(out.falsePositiveDetermination) && typeof out.falsePositiveDetermination.type === 'string') {
    out.falsePositiveDetermination = { ...out.falsePositiveDetermination, type: `TYPE_${out.falsePositiveDetermination.type}` };
  }
  return out;
}
function advisoryView(a: AdvisoryRecord): Json {
  const { legacyAdvisoryID, events, ...f } = a.fields;
  return {
    uid: a.id,
    ...f,
    ...(legacyAdvisoryID === undefined ? {} : { legacyAdvisoryId: legacyAdvisoryID }),
    events: (Array.isArray(events) ? events : []).filter(isPlainObject).map(eventView).filter(Boolean),
    createTime: ts(a.createdAt),
    updateTime: ts(a.updatedAt),
    ...(a.deletedAt === undefined ? {} : { deleteTime: ts(a.deletedAt) }),
  };
}
// v2 list parameters whose v1 twin the v1 collection already filters on (values renamed where they differ)
const ADVISORY_PARAMS: Record<string, string> = {
  advisory_ids: 'advisory_ids',
  legacy_advisory_ids: 'legacy_advisory_ids',
  artifact_names: 'artifact_name',
  artifact_types: 'artifact_type',
  artifact_architectures: 'artifact_architecture',
  component_names: 'component_name',
  component_types: 'component_type',
  component_locations: 'component_location',
  aliases: 'aliases',
  event_authors: 'event_author',
  exclude_event_authors: 'exclude_event_author',
  event_reviewers: 'event_reviewer',
  event_types: 'event_types',
  latest_event_type: 'latest_event_type',
};
function advisoryFilter(a: AdvisoryRecord, view: Json, q: Query): boolean {
  const v1: Record<string, string[]> = {};
  for (const [v2, name] of Object.entries(ADVISORY_PARAMS)) {
    const values = q.all(v2);
    if (values.length > 0) v1[name] = values;
  }
  const states = q.all('event_review_states').map((s) => (s === `${REVIEW_PREFIX}UNSPECIFIED` ? 'UNKNOWN' : s.replace(REVIEW_PREFIX, '')));
  if (states.length > 0) v1.event_statuses = states;
  if (!advisories.matches(a, new Query(v1), undefined as unknown as Ctx)) return false;
  const text = q.one('query')?.toLowerCase() ?? '';
  if (text === '') return true;
  const haystack = [view.artifactName, view.componentName, ...(Array.isArray(view.aliases) ? view.aliases : [])];
  return haystack.some((s) => typeof s === 'string' && s.toLowerCase().includes(text));
}

const iam = '/iam/v2beta1';
const CRUD = ['list', 'get', 'create', 'update', 'delete'] as const;
const READ = ['list', 'get'] as const;
const TIMES = ['createTime', 'updateTime'];

/** The ten resources of the native v2beta1 surface. */
export const NATIVE_RESOURCES: readonly NativeResource[] = [
  {
    plural: 'groups',
    prefix: iam,
    collection: groups,
    operations: CRUD,
    view: groupView,
    toRecordBody: (v2) => ({
      name: v2.name,
      description: v2.description,
      resourceLimits: v2.resourceLimits,
      verified: v2.verified,
      ...(v2.kind === undefined ? {} : { kind: v2.kind }),
    }),
    writable: ['name', 'description', 'verified', 'kind'],
    validate: named,
    sortable: ['uid', 'name', ...TIMES],
    defaultOrder: 'uid',
    named: true,
  },
  {
    plural: 'identities',
    prefix: iam,
    collection: identities,
    operations: CRUD,
    view: identityView,
    toRecordBody: (v2) => ({ name: v2.name, description: v2.description, ...relationshipRecord(v2) }),
    writable: ['name', 'description', ...RELATIONSHIPS],
    oneofs: [RELATIONSHIPS],
    validate: identityViolations,
    sortable: ['uid', 'name', ...TIMES, 'lastSeenTime'],
    defaultOrder: 'uid',
    named: true,
    filter: (_i: IdentityRecord, view, q) => {
      const type = q.one('relationship_type');
      if (type === undefined || type === '') return true;
      const key = RELATIONSHIP_TYPES[type];
      return key === undefined ? type === 'RELATIONSHIP_TYPE_UNSPECIFIED' : view[key] !== undefined;
    },
  },
  {
    plural: 'roles',
    prefix: iam,
    collection: roles,
    operations: CRUD,
    view: roleView,
    toRecordBody: (v2) => ({
      name: v2.name,
      description: v2.description,
      capabilities: (Array.isArray(v2.capabilities) ? v2.capabilities : []).map((c) => v1Capability(String(c)) ?? c),
    }),
    writable: ['name', 'description', 'capabilities'],
    validate: roleViolations,
    sortable: ['uid', 'name', ...TIMES],
    defaultOrder: 'uid',
    named: true,
    rootShared: true,
  },
  {
    plural: 'roleBindings',
    prefix: iam,
    collection: rolebindings,
    operations: CRUD,
    view: bindingView,
    toRecordBody: (v2) => ({
      identity: v2.identityUid ?? (isPlainObject(v2.identity) ? v2.identity.uid : undefined),
      role: v2.roleUid ?? (isPlainObject(v2.role) ? v2.role.uid : undefined),
    }),
    writable: ['identityUid', 'roleUid'],
    validate: (given, ctx) => {
      // a PATCH merges over the binding as v2 shows it: its identity and role as objects
      const v2 = {
        identityUid: given.identityUid ?? (isPlainObject(given.identity) ? given.identity.uid : undefined),
        roleUid: given.roleUid ?? (isPlainObject(given.role) ? given.role.uid : undefined),
      };
      const out = required(v2, ['identityUid', 'roleUid']);
      // a binding may only name an identity the caller can see
      const identity = typeof v2.identityUid === 'string' ? ctx.store.identities.get(v2.identityUid) : undefined;
      if (v2.identityUid && !(identity && isVisible(identities, identity, ctx))) {
        out.push({ field: 'identityUid', description: 'no such identity' });
      }
      return out;
    },
    sortable: ['uid', 'createTime'],
    defaultOrder: 'uid',
    named: false,
    filter: (b: RoleBindingRecord, _view, q) => {
      const group = q.one('group');
      const identity = q.one('identity');
      const role = q.one('role');
      return (!group || parentOf(b.id) === group) && (!identity || b.identity === identity) && (!role || b.role === role);
    },
  },
  {
    plural: 'identityProviders',
    prefix: iam,
    collection: identityProviders,
    operations: CRUD,
    view: idpView,
    toRecordBody: (v2) => ({ name: v2.name, description: v2.description, defaultRole: v2.defaultRole, oidc: v2.oidc }),
    writable: ['name', 'description', 'defaultRole', 'oidc'],
    validate: (v2) => [...named(v2), ...required(v2, ['defaultRole', 'oidc']), ...oidcViolations(v2.oidc)],
    sortable: ['uid', 'name', ...TIMES],
    defaultOrder: 'uid',
    named: true,
  },
  {
    plural: 'accountAssociations',
    prefix: iam,
    collection: accountAssociations,
    operations: CRUD,
    view: associationView,
    toRecordBody: (v2) => Object.fromEntries(['name', 'description', ...PROVIDERS].filter((k) => v2[k] !== undefined).map((k) => [k, v2[k]])),
    writable: ['name', 'description', ...PROVIDERS],
    validate: (v2) => required(v2, ['name']),
    sortable: ['uid', 'name', ...TIMES],
    defaultOrder: 'uid',
    named: true,
  },
  {
    plural: 'groupInvites',
    prefix: iam,
    collection: groupInvites,
    operations: ['list', 'get', 'create', 'delete'],
    view: inviteView,
    createView: (i: GroupInviteRecord, ctx) => ({ ...inviteView(i, ctx), code: i.code }),
    toRecordBody: (v2) => ({ ttl: v2.ttl, role: v2.roleUid, email: v2.email, singleUse: v2.singleUse }),
    writable: ['roleUid', 'email', 'ttl', 'singleUse'],
    validate: (v2) => required(v2, ['roleUid', 'ttl']),
    sortable: ['uid', 'createTime', 'expirationTime', 'email'],
    defaultOrder: 'createTime desc',
    named: false,
    filter: (i: GroupInviteRecord, _view, q) => {
      const keyId = q.one('key_id');
      return !keyId || i.keyId === keyId;
    },
  },
  {
    plural: 'repos',
    prefix: '/registry/v2beta1',
    collection: repos,
    operations: READ,
    view: repoView,
    writable: [],
    sortable: ['uid', 'name', ...TIMES],
    defaultOrder: 'uid',
    named: true,
  },
  {
    plural: 'tags',
    prefix: '/registry/v2beta1',
    collection: tags,
    operations: READ,
    view: tagView,
    writable: [],
    sortable: ['uid', 'name', 'updateTime'],
    defaultOrder: 'uid',
    named: true,
    filter: (t: TagRecord, _view, q) => {
      const digest = q.one('digest');
      if (digest && t.digest !== digest) return false;
      const since = q.one('updated_since');
      if (since) {
        const ms = parseTimestamp(since);
        if (ms !== undefined && t.lastUpdated < ms) return false;
      }
      // v2 hides referrer, dated and epoch tags unless asked for them
      return TAG_FORMS.every(([param, form]) => q.bool(param) === true || !form.test(t.name));
    },
  },
  {
    plural: 'advisories',
    prefix: '/vulnerabilities/v2beta1',
    collection: advisories,
    operations: READ,
    view: advisoryView,
    writable: [],
    sortable: ['uid', 'createTime', 'updateTime', 'deleteTime', 'aliases'],
    defaultOrder: 'uid',
    named: false,
    filter: advisoryFilter,
  },
];

/** Roles the store holds at the root (managed roles) belong to every group's role list. */
export function isManagedRole(uid: string): boolean {
  return parentOf(uid) === '/';
}
