import { Body } from '../body.js';
import { type CollectionDef, matchesExact, matchesUidp, requireGroup } from '../collection.js';
import { alreadyExists, invalid } from '../grpc-status.js';
import type { Json, RepoRecord } from '../store.js';
import { formatTimestamp } from '../timestamp.js';
import { isUidp, newChildUid, parentOf } from '../../uidp/uidp.js';

export const CATALOG_TIERS = { UNKNOWN: 0, APPLICATION: 4, BASE: 5, FIPS: 6, AI: 7, DEVTOOLS: 8, COMMERCIAL: 9 };

function fields(body: Body): Json {
  const name = body.string('name');
  if (name === '') throw invalid('name is required');
  const out: Json = {
    name,
    catalogTier: body.enumValue('catalogTier', CATALOG_TIERS, 'UNKNOWN'),
    bundles: body.strings('bundles'),
    readme: body.string('readme'),
    aliases: body.strings('aliases'),
    activeTags: body.strings('activeTags'),
    description: body.string('description'),
  };
  // `sync_config` keeps its snake_case key in v1 JSON (explicit json_name).
  const sync = body.object('sync_config');
  if (sync !== undefined) out.sync_config = sync;
  const overlay = body.object('customOverlay');
  if (overlay !== undefined) out.customOverlay = overlay;
  return out;
}

export const repos: CollectionDef<RepoRecord> = {
  name: 'repos',
  path: '/registry/v1/repos',
  capability: 'repo',
  createParent: 'path',
  timestampFields: ['createTime'],
  keyOf: (r) => r.id,
  keyFilter: 'id',
  create(json, parent, ctx, query) {
    if (!isUidp(parent)) throw invalid(`invalid parent "${parent}"`);
    requireGroup(ctx, parent);
    const f = fields(new Body(json));
    if (query.bool('prevent_existing') === true) {
      for (const r of ctx.store.repos.values()) {
        if (parentOf(r.id) === parent && r.fields.name === f.name) throw alreadyExists(`repo "${String(f.name)}" already exists`);
      }
    }
    return { id: newChildUid(parent), createTime: ctx.now, fields: f };
  },
  replace: (json, existing) => ({ ...existing, fields: fields(new Body(json)) }),
  matches: (r, q) => matchesExact(r.id, q.one('id')) && matchesExact(String(r.fields.name), q.one('name')) && matchesUidp(r.id, q),
  renderList: render,
  renderWrite: render,
  afterDelete(r, ctx) {
    for (const id of [...ctx.store.tags.keys()]) if (parentOf(id) === r.id) ctx.store.tags.delete(id);
  },
};

function render(r: RepoRecord): Json {
  const { sync_config, customOverlay, ...f } = r.fields;
  return {
    id: r.id,
    name: f.name,
    catalogTier: f.catalogTier,
    bundles: f.bundles,
    readme: f.readme,
    ...(sync_config === undefined ? {} : { sync_config }),
    ...(customOverlay === undefined ? {} : { customOverlay }),
    aliases: f.aliases,
    createTime: formatTimestamp(r.createTime),
    activeTags: f.activeTags,
    description: f.description,
  };
}
