import { Body, isPlainObject } from '../body.js';
import { type CollectionDef, type Ctx, matchesAny, matchesExact, matchesUidp, requireGroup } from '../collection.js';
import { invalid } from '../grpc-status.js';
import type { Query } from '../query.js';
import type { AdvisoryRecord, Json } from '../store.js';
import { formatTimestamp } from '../timestamp.js';
import { isUidp, newChildUid, parentOf } from '../../uidp/uidp.js';

const REVIEW_STATUSES = { UNKNOWN: 0, PENDING: 1, APPROVED: 2, REQUEST_CHANGES: 3, REJECTED: 4 };

// EventTypeFilter value → the event's oneof key.
const EVENT_TYPES: Record<string, string> = {
  EVENT_TYPE_FILTER_DETECTION: 'detection',
  EVENT_TYPE_FILTER_FIXED: 'fixed',
  EVENT_TYPE_FILTER_FALSE_POSITIVE_DETERMINATION: 'falsePositiveDetermination',
  EVENT_TYPE_FILTER_ANALYSIS_NOT_PLANNED: 'analysisNotPlanned',
  EVENT_TYPE_FILTER_FIX_NOT_PLANNED: 'fixNotPlanned',
  EVENT_TYPE_FILTER_PENDING_UPSTREAM_FIX: 'pendingUpstreamFix',
  EVENT_TYPE_FILTER_TRUE_POSITIVE_DETERMINATION: 'truePositiveDetermination',
  EVENT_TYPE_FILTER_PATCHED: 'patched',
  EVENT_TYPE_FILTER_COMPONENT_LOCATION_CHANGED: 'componentLocationChanged',
};
const EVENT_KINDS = Object.values(EVENT_TYPES);

const ORDERS: Record<string, [(a: AdvisoryRecord) => string | number, 1 | -1]> = {
  ORDER_BY_UNSPECIFIED: [(a) => a.id, 1],
  ID_ASC: [(a) => a.id, 1],
  ID_DESC: [(a) => a.id, -1],
  CREATED_AT_ASC: [(a) => a.createdAt, 1],
  CREATED_AT_DESC: [(a) => a.createdAt, -1],
  UPDATED_AT_ASC: [(a) => a.updatedAt, 1],
  UPDATED_AT_DESC: [(a) => a.updatedAt, -1],
  DELETED_AT_ASC: [(a) => a.deletedAt ?? 0, 1],
  DELETED_AT_DESC: [(a) => a.deletedAt ?? 0, -1],
  ALIASES_ASC: [(a) => aliasesOf(a).join(','), 1],
  ALIASES_DESC: [(a) => aliasesOf(a).join(','), -1],
};

const aliasesOf = (a: AdvisoryRecord) => a.fields.aliases as string[];
const eventsOf = (a: AdvisoryRecord) => a.fields.events as Json[];

function events(body: Body, advisoryId: string, ctx: Ctx): Json[] {
  const raw = body.raw('events');
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || !raw.every(isPlainObject)) throw invalid('invalid value for repeated message field events');
  return raw.map((e, i) => {
    const ev = new Body(e);
    const kinds = EVENT_KINDS.filter((k) => ev.has(k));
    if (kinds.length > 1) throw invalid(`events[${i}]: an event has at most one type`);
    const out: Json = { ...e };
    out.id = ev.string('id') || newChildUid(advisoryId);
    out.timestamp = formatTimestamp(ev.timestamp('timestamp') ?? ctx.now);
    out.status = ev.enumValue('status', REVIEW_STATUSES, 'UNKNOWN');
    out.author = ev.string('author');
    out.reviewer = ev.string('reviewer');
    if (ev.has('findings') && typeof ev.raw('findings') !== 'string') throw invalid(`events[${i}].findings must be base64`);
    return out;
  });
}

function fields(body: Body, id: string, ctx: Ctx): Json {
  const out: Json = {
    artifactType: body.string('artifactType'),
    artifactName: body.string('artifactName'),
    artifactArchitecture: body.string('artifactArchitecture'),
    aliases: body.strings('aliases'),
    events: events(body, id, ctx),
    advisoryId: body.string('advisoryId'),
    author: body.string('author'),
  };
  for (const optional of ['componentName', 'componentLocation', 'componentType', 'legacyAdvisoryID']) {
    if (body.has(optional)) out[optional] = body.string(optional);
  }
  return out;
}

function matchesEvents(a: AdvisoryRecord, q: Query): boolean {
  const evs = eventsOf(a);
  const statuses = q.all('event_statuses');
  if (statuses.length > 0 && !evs.some((e) => statuses.includes(String(e.status)))) return false;
  const authors = q.all('event_author');
  if (authors.length > 0 && !evs.some((e) => authors.includes(String(e.author)))) return false;
  const reviewers = q.all('event_reviewer');
  if (reviewers.length > 0 && !evs.some((e) => reviewers.includes(String(e.reviewer)))) return false;
  const excluded = q.all('exclude_event_author');
  if (excluded.length > 0 && evs.some((e) => excluded.includes(String(e.author)))) return false;
  const types = q.all('event_types').map((t) => EVENT_TYPES[t]);
  if (types.length > 0 && !evs.some((e) => types.some((k) => k !== undefined && k in e))) return false;
  const latestType = q.one('latest_event_type');
  if (latestType !== undefined && latestType !== '' && latestType !== 'EVENT_TYPE_FILTER_UNSPECIFIED') {
    const latest = [...evs].sort((x, y) => String(x.timestamp).localeCompare(String(y.timestamp))).at(-1);
    const kind = EVENT_TYPES[latestType];
    if (!latest || kind === undefined || !(kind in latest)) return false;
  }
  return true;
}

// v1's only paged list: an offset token, an order_by enum and a totalCount.
function page(items: AdvisoryRecord[], q: Query): Json {
  const orderName = q.one('order_by') || 'ID_ASC';
  const order = ORDERS[orderName];
  if (!order) throw invalid(`invalid value for enum field order_by: "${orderName}"`);
  const [keyOf, dir] = order;
  const sorted = [...items].sort((x, y) => {
    const a = keyOf(x);
    const b = keyOf(y);
    return (a < b ? -1 : a > b ? 1 : x.id < y.id ? -1 : 1) * dir;
  });
  const size = q.int('page_size') ?? 0;
  if (size < 0) throw invalid('page_size must not be negative');
  const token = q.one('page_token') ?? '';
  let offset = 0;
  if (token !== '') {
    const m = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
    if (!m) throw invalid('invalid page_token');
    offset = Number(m[1]);
  }
  const end = size === 0 ? sorted.length : offset + size;
  const slice = sorted.slice(offset, end);
  return {
    id: q.one('uidp.children_of') ?? q.one('uidp.descendants_of') ?? '',
    items: slice.map((a) => render(a)),
    nextPageToken: end < sorted.length ? Buffer.from(`offset:${end}`).toString('base64url') : '',
    totalCount: String(sorted.length),
  };
}

export const advisories: CollectionDef<AdvisoryRecord> = {
  name: 'advisories',
  path: '/vulnerabilities/v1/advisories',
  capability: 'advisories',
  createParent: 'body',
  timestampFields: ['createdAt', 'updatedAt', 'deletedAt'],
  keyOf: (a) => a.id,
  keyFilter: 'id',
  create(json, _parent, ctx) {
    const body = new Body(json);
    const parent = body.string('parentId');
    if (!isUidp(parent)) throw invalid('parentId must be a group uid');
    requireGroup(ctx, parent);
    const advisory = body.object('advisory');
    if (advisory === undefined) throw invalid('advisory is required');
    const id = newChildUid(parent);
    return { id, createdAt: ctx.now, updatedAt: ctx.now, fields: fields(new Body(advisory), id, ctx) };
  },
  replace(json, existing, ctx) {
    const body = new Body(json);
    const record: AdvisoryRecord = { id: existing.id, createdAt: existing.createdAt, updatedAt: ctx.now, fields: fields(body, existing.id, ctx) };
    const deletedAt = body.timestamp('deletedAt');
    if (deletedAt !== undefined) record.deletedAt = deletedAt;
    return record;
  },
  matches: (a, q) => {
    const f = a.fields;
    const s = (k: string) => (typeof f[k] === 'string' ? (f[k] as string) : undefined);
    const aliases = q.all('aliases');
    return (
      matchesExact(a.id, q.one('id')) &&
      matchesUidp(a.id, q) &&
      matchesAny(s('advisoryId'), q.all('advisory_ids')) &&
      matchesAny(s('legacyAdvisoryID'), q.all('legacy_advisory_ids')) &&
      matchesAny(s('artifactType'), q.all('artifact_type')) &&
      matchesAny(s('artifactName'), q.all('artifact_name')) &&
      matchesAny(s('artifactArchitecture'), q.all('artifact_architecture')) &&
      matchesAny(s('componentName'), q.all('component_name')) &&
      matchesAny(s('componentType'), q.all('component_type')) &&
      matchesAny(s('componentLocation'), q.all('component_location')) &&
      (aliases.length === 0 || aliasesOf(a).some((x) => aliases.includes(x))) &&
      matchesEvents(a, q)
    );
  },
  renderList: render,
  renderWrite: render,
  listEnvelope: page,
  // Seeded events get their ids under the seeded advisory uid (create would use a fresh one).
  seedBody: (record) => {
    const id = String(record.id);
    const events = Array.isArray(record.events)
      ? record.events.map((e: unknown) => (isPlainObject(e) && e.id === undefined ? { ...e, id: newChildUid(id) } : e))
      : record.events;
    return { parentId: parentOf(id), advisory: { ...record, events } };
  },
};

function render(a: AdvisoryRecord): Json {
  return {
    id: a.id,
    ...a.fields,
    createdAt: formatTimestamp(a.createdAt),
    updatedAt: formatTimestamp(a.updatedAt),
    ...(a.deletedAt === undefined ? {} : { deletedAt: formatTimestamp(a.deletedAt) }),
  };
}
