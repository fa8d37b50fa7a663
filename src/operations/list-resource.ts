import { invalidFields } from '../errors/error-registry.js';
import { ApiError } from '../errors/api-error.js';
import { type OperationContext, snapshotPrefix } from './operation-context.js';
import { hydrateItems } from './hydrate-items.js';
import { translateWithTimes } from './resource-times.js';
import { fetchV1Collection, findV1 } from './v1-records.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import type { Json } from '../json/json-path.js';
import { toV2 } from '../translate/v1-to-v2.js';
import { parseOrderBy } from '../mapping/order-by.js';
import { parsePageParams } from '../list/page-params.js';
import { PageTokenCodec } from '../list/page-token.js';
import { type FilterPlan, planFilters } from '../list/plan-filters.js';
import type { RawQuery } from '../list/query-params.js';
import type { Snapshot } from '../list/snapshot-cache.js';
import { type KeyValue, seekAfter, sortItems, v2KeyFn } from '../list/sorted-items.js';
import { v1KeyFn } from '../list/v1-sort-keys.js';

/** v1 records of a page in their v2 shape, with the times v1 does not keep. */
function translatePage(ctx: OperationContext, records: Json[]): Promise<Json[]> {
  const { rules, capabilities } = ctx.resource;
  return translateWithTimes(ctx, records, (record) => toV2(record, rules, capabilities));
}

/** The v1 collection for a plan, with the root-level records every group shares when the plan asks for them. */
async function fetchWithRoot(ctx: OperationContext, plan: FilterPlan): Promise<{ items: Json[]; bytes: number }> {
  if (!plan.rootQuery) return fetchV1Collection(ctx, plan.v1Query);
  const [scoped, root] = await Promise.all([fetchV1Collection(ctx, plan.v1Query), fetchV1Collection(ctx, plan.rootQuery)]);
  const key = ctx.resource.mapping.v1.key;
  const seen = new Set(scoped.items.map((r) => r[key]));
  return { items: [...scoped.items, ...root.items.filter((r) => !seen.has(r[key]))], bytes: scoped.bytes + root.bytes };
}

/** Whether v1 still shows `item` to this caller (nothing to check when there is no item). */
async function stillVisible(ctx: OperationContext, snapshot: Snapshot<OperationContext>, item: Json | undefined): Promise<boolean> {
  if (item === undefined) return true;
  const uid = snapshot.uidOf(item);
  if (typeof uid !== 'string') return false;
  try {
    return (await findV1(ctx, uid)) !== undefined;
  } catch (err) {
    // refused (permission, not found): read the whole list again, which answers as v1 now does
    if (err instanceof ApiError && err.code !== GrpcCode.UNAVAILABLE && err.code !== GrpcCode.DEADLINE_EXCEEDED) return false;
    throw err;
  }
}

const invalidToken = (description: string) => invalidFields([{ field: 'page_token', description }]);

/**
 * `GET …/<plural>`: the v2 list contract on top of a v1 list that does not page. The collection is
 * fetched once (filters v1 can apply), translated, filtered and sorted into a per-caller snapshot;
 * pages are cut from it at a keyset position sealed in the page token.
 */
export async function listResource(ctx: OperationContext, query: RawQuery): Promise<Json> {
  const { mapping, rules, capabilities } = ctx.resource;
  const plan = planFilters(ctx.resource, query);
  if (plan instanceof ApiError) throw plan;
  const page = parsePageParams(query);
  if (!page.ok) throw invalidFields(page.violations);
  const order = parseOrderBy(page.params.orderBy, mapping.list);
  if (!order.ok) throw invalidFields([order.violation]);

  const binding = PageTokenCodec.bindingOf([mapping.resource, plan.signature, order.canonical, ctx.caller]);
  const now = ctx.now();
  let after: KeyValue[] | undefined;
  if (page.params.pageToken !== '') {
    const opened = ctx.lists.tokens.open(page.params.pageToken, binding, now);
    if (!opened.ok) {
      throw invalidToken(
        opened.reason === 'foreign'
          ? 'page_token was issued for another query (filters or order_by changed) or another caller'
          : 'page_token is not a token this proxy issued, or it was altered',
      );
    }
    // An expired token restarts from the first page, as the spec says: no error.
    if (!('expired' in opened)) after = opened.position.after as KeyValue[];
  }

  const key = `${snapshotPrefix(ctx)}${binding}`;
  const load = async (): Promise<Snapshot<OperationContext>> => {
    const fetched = await fetchWithRoot(ctx, plan);
    const bytes = fetched.bytes * 2;
    // Without proxy-side filters, and with sort keys v1 already has, the v1 records are kept as they
    // came and only the items a page serves are translated: far less to allocate and promote.
    const fromV1 = plan.predicates.length === 0 ? v1KeyFn(rules, order.keys) : undefined;
    const v1Key = mapping.v1.key;
    if (fromV1)
      return { items: sortItems(fetched.items, order.keys, fromV1), keyOf: fromV1, render: translatePage, uidOf: (r) => r[v1Key], bytes, checkedAt: now };
    const keyOf = v2KeyFn(order.keys);
    const items = (await translateWithTimes(ctx, fetched.items, (record) => toV2(record, rules, capabilities))).filter((item) =>
      plan.predicates.every((p) => p(item)),
    );
    return { items: sortItems(items, order.keys, keyOf), keyOf, render: (_ctx, page) => page, uidOf: (item) => item.uid, bytes, checkedAt: now };
  };
  const { pageSize, skip } = page.params;
  const seek = (items: Json[], keyOf: Snapshot['keyOf']) => (after ? seekAfter(items, after, order.keys, keyOf) : 0) + skip;
  const found = await ctx.lists.cache.lookup(key, load);
  let snapshot = found.snapshot;
  // AIP-158: a kept snapshot is not a capability. A page it serves is re-authorized (once the last
  // check is older than LIST_REAUTH_MS) with one small v1 read: the page's first item, with the
  // caller's credentials. When v1 no longer shows it (access revoked, or the item gone), the
  // snapshot is dropped and read again from v1.
  if (!found.fresh && now - snapshot.checkedAt >= ctx.lists.reauthMs) {
    if (await stillVisible(ctx, snapshot, snapshot.items[seek(snapshot.items, snapshot.keyOf)] ?? snapshot.items[0])) snapshot.checkedAt = now;
    else {
      ctx.lists.cache.delete(key);
      ({ snapshot } = await ctx.lists.cache.lookup(key, load));
    }
  }

  const start = seek(snapshot.items, snapshot.keyOf);
  const served = snapshot.items.slice(start, start + pageSize);
  const end = start + served.length;
  const nextPageToken =
    served.length > 0 && end < snapshot.items.length
      ? ctx.lists.tokens.seal({ binding, after: snapshot.keyOf(served[served.length - 1] as Json), issuedAt: now })
      : '';
  const rendered = await hydrateItems(ctx, await snapshot.render(ctx, served));
  return { [mapping.resource]: rendered, nextPageToken, totalCount: String(snapshot.items.length), skipped: skip };
}
