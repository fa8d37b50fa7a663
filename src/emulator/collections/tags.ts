import { Body } from '../body.js';
import { type CollectionDef, type Ctx, matchesExact, matchesUidp, requireRepo } from '../collection.js';
import { invalid } from '../grpc-status.js';
import type { Query } from '../query.js';
import type { TagRecord } from '../store.js';
import { formatTimestamp, parseTimestamp } from '../timestamp.js';
import { newChildUid } from '../../uidp/uidp.js';

const TAG_NAME = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;
const REFERRER = /^sha256-/;
const DATED = /-20\d{6}$/;
const EPOCH = /-r\d+$/;

function fields(body: Body, ctx: Ctx) {
  const name = body.string('name');
  if (!TAG_NAME.test(name)) throw invalid('name must match "^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$"');
  return {
    name,
    digest: body.string('digest'),
    lastUpdated: ctx.now,
    deprecated: body.bool('deprecated'),
    bundles: body.strings('bundles'),
  };
}

function matchesTagFilters(t: TagRecord, q: Query): boolean {
  const since = q.one('updated_since');
  if (since !== undefined && since !== '') {
    const ms = parseTimestamp(since);
    if (ms === undefined) throw invalid(`invalid value for timestamp field updated_since: "${since}"`);
    if (t.lastUpdated < ms) return false;
  }
  if (q.bool('exclude_referrers') === true && REFERRER.test(t.name)) return false;
  if (q.bool('exclude_dates') === true && DATED.test(t.name)) return false;
  if (q.bool('exclude_epochs') === true && EPOCH.test(t.name)) return false;
  return true;
}

/** Tags live under their repo: a tag's uid is its repo's uid plus one segment. */
export const tags: CollectionDef<TagRecord> = {
  name: 'tags',
  path: '/registry/v1/tags',
  capability: 'tag',
  createParent: 'path',
  timestampFields: ['lastUpdated'],
  keyOf: (t) => t.id,
  keyFilter: 'id',
  create(json, parent, ctx) {
    requireRepo(ctx, parent);
    return { id: newChildUid(parent), ...fields(new Body(json), ctx) };
  },
  replace: (json, existing, ctx) => ({ id: existing.id, ...fields(new Body(json), ctx) }),
  matches: (t, q) =>
    matchesExact(t.id, q.one('id')) &&
    matchesExact(t.name, q.one('name')) &&
    matchesExact(t.digest, q.one('digest')) &&
    matchesUidp(t.id, q) &&
    matchesTagFilters(t, q),
  renderList: render,
  renderWrite: render,
};

function render(t: TagRecord) {
  return {
    id: t.id,
    name: t.name,
    digest: t.digest,
    lastUpdated: formatTimestamp(t.lastUpdated),
    deprecated: t.deprecated,
    bundles: t.bundles,
  };
}
