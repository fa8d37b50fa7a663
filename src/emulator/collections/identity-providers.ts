import { Body, requireName } from '../body.js';
import { type CollectionDef, type Ctx, matchesExact, matchesUidp, requireGroup, requireRoleUsableIn } from '../collection.js';
import { invalid } from '../grpc-status.js';
import type { IdentityProviderRecord, Json } from '../store.js';
import { newChildUid } from '../../uidp/uidp.js';

const CORRELATION_RULES = {
  CORRELATION_RULE_UNSPECIFIED: 0,
  CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID: 1,
  CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID: 2,
};

function oidc(body: Body, previousSecret: string): Json | undefined {
  const raw = body.object('oidc');
  if (raw === undefined) return undefined;
  const o = new Body(raw);
  const secret = o.string('clientSecret');
  // a provider signs nobody in without the issuer to trust and the client it is registered as
  const issuer = o.string('issuer');
  const clientId = o.string('clientId');
  if (issuer === '') throw invalid('oidc.issuer is required');
  if (clientId === '') throw invalid('oidc.clientId is required');
  return {
    issuer,
    clientId,
    // An empty secret on PUT keeps the stored one: reads never return it, so a client cannot echo it.
    clientSecret: secret === '' ? previousSecret : secret,
    additionalScopes: o.strings('additionalScopes'),
    groupsClaim: o.string('groupsClaim'),
    correlationRule: o.enumValue('correlationRule', CORRELATION_RULES, 'CORRELATION_RULE_UNSPECIFIED'),
    pkceEnabled: o.bool('pkceEnabled'),
  };
}

function fields(body: Body, group: string, ctx: Ctx, previousSecret: string) {
  const defaultRole = body.string('defaultRole');
  if (defaultRole !== '') requireRoleUsableIn(ctx, defaultRole, group);
  const record: Omit<IdentityProviderRecord, 'id'> = {
    name: requireName(body.string('name')),
    description: body.string('description'),
    defaultRole,
  };
  const o = oidc(body, previousSecret);
  if (o !== undefined) record.oidc = o;
  return record;
}

export const identityProviders: CollectionDef<IdentityProviderRecord> = {
  name: 'identityProviders',
  path: '/iam/v1/identityProviders',
  capability: 'identity_providers',
  createParent: 'path',
  keyOf: (p) => p.id,
  keyFilter: 'id',
  create(json, parent, ctx) {
    requireGroup(ctx, parent);
    const record = { id: newChildUid(parent), ...fields(new Body(json), parent, ctx, '') };
    if (record.oidc === undefined) throw invalid('oidc is required');
    return record;
  },
  replace(json, existing, ctx) {
    const previous = typeof existing.oidc?.clientSecret === 'string' ? existing.oidc.clientSecret : '';
    return { id: existing.id, ...fields(new Body(json), existing.id, ctx, previous) };
  },
  matches: (p, q) => matchesExact(p.id, q.one('id')) && matchesExact(p.name, q.one('name')) && matchesUidp(p.id, q),
  renderList: render,
  renderWrite: render,
};

function render(p: IdentityProviderRecord) {
  const out: Json = { id: p.id, name: p.name, description: p.description, defaultRole: p.defaultRole };
  if (p.oidc) {
    const { clientSecret: _never, ...visible } = p.oidc;
    out.oidc = visible;
  }
  return out;
}
