import { Body, isPlainObject } from '../body.js';
import { type CollectionDef, matchesExact, requireGroup } from '../collection.js';
import { alreadyExists, invalid } from '../grpc-status.js';
import type { AccountAssociationRecord, Json } from '../store.js';

const PROVIDERS = ['amazon', 'google', 'chainguard', 'azure', 'github'] as const;

function fields(body: Body) {
  const providers: Json = {};
  for (const p of PROVIDERS) {
    const value = body.object(p);
    if (value !== undefined) providers[p] = value;
  }
  const github = providers.github;
  if (isPlainObject(github) && github.appInstallations !== undefined) {
    // map<int64, …>: keys are decimal strings.
    if (!isPlainObject(github.appInstallations) || Object.keys(github.appInstallations).some((k) => !/^\d+$/.test(k))) {
      throw invalid('invalid value for github.appInstallations');
    }
  }
  return { name: body.string('name'), description: body.string('description'), providers };
}

/** Keyed by group (there is no `id`); one association per group. */
export const accountAssociations: CollectionDef<AccountAssociationRecord> = {
  name: 'account_associations',
  path: '/iam/v1/account_associations',
  capability: 'account_associations',
  createParent: 'path',
  keyOf: (a) => a.group,
  keyFilter: 'group',
  create(json, parent, ctx) {
    requireGroup(ctx, parent);
    if (ctx.store.account_associations.has(parent)) {
      throw alreadyExists(`account associations for group "${parent}" already exist`);
    }
    return { group: parent, ...fields(new Body(json)) };
  },
  replace: (json, existing) => ({ group: existing.group, ...fields(new Body(json)) }),
  matches: (a, q) => matchesExact(a.group, q.one('group')) && matchesExact(a.name, q.one('name')),
  renderList: render,
  renderWrite: render,
};

function render(a: AccountAssociationRecord) {
  return { group: a.group, name: a.name, description: a.description, ...a.providers };
}
