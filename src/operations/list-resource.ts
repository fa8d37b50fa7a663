import { invalidFields } from '../errors/error-registry.js';
import { ApiError } from '../errors/api-error.js';
import { type OperationContext, snapshotPrefix, withSignal } from './operation-context.js';
import { hydrateItems } from './hydrate-items.js';
import { timedTexts, translateOnce } from './resource-times.js';
import { type V1Collection, fetchV1Collection, findV1 } from './v1-records.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import type { Json } from '../json/json-path.js';
import { toV2 } from '../translate/v1-to-v2.js';
import { parseOrderBy } from '../mapping/order-by.js';
import { parsePageParams } from '../list/page-params.js';
import { PageTokenCodec } from '../list/page-token.js';
import { type FilterPlan, planFilters } from '../list/plan-filters.js';
import type { RawQuery } from '../list/query-params.js';
import { type Snapshot, itemCount, itemText, itemsText, snapshotOf } from '../list/snapshot-cache.js';
import { type KeyValue, seekAfter, sortItems, v2KeyFn } from '../list/sorted-items.js';
import { JsonText } from '../json/json-text.js';
import type { LifeSignal } from '../upstream/request-life.js';

/** The v1 collection for a plan, with the root-level records every group shares when the plan asks for them. */
async function fetchWithRoot(ctx: OperationContext, plan: FilterPlan): Promise<V1Collection> {
  if (!plan.rootQuery) return fetchV1Collection(ctx, plan.v1Query);
  const [scoped, root] = await Promise.all([fetchV1Collection(ctx, plan.v1Query), fetchV1Collection(ctx, plan.rootQuery)]);
  const key = ctx.resource.mapping.v1.key;
  const records = () => {
    const own = scoped.records();
    const seen = new Set(own.map((r) => r[key]));
    return [...own, ...root.records().filter((r) => !seen.has(r[key]))];
  };
  return { digest: `${scoped.digest}.${root.digest}`, records };
}

/** Whether v1 still shows the item `uid` to this caller (nothing to check when there is no item). */
async function stillVisible(ctx: OperationContext, uid: unknown): Promise<boolean> {
  if (uid === undefined) return true;
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
export async function listResource(ctx: OperationContext, query: RawQuery): Promise<Json | JsonText> {
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
    // An expired token restarts from the first page, as v2 defines it: no error.
    if (!('expired' in opened)) after = opened.position.after as KeyValue[];
  }

  const key = `${snapshotPrefix(ctx)}${binding}`;
  const keyOf = v2KeyFn(order.keys);
  // The collection is translated, timed and rendered to JSON once per v1 read; pages are cut from
  // the texts, and sort keys of the few items a page seeks past are read back from them. When v1
  // answered this caller byte for byte what it answered another caller whose snapshot is kept, for
  // the same query and order, that snapshot's content is this caller's too: v1 has shown this caller
  // exactly those records, and nothing in a snapshot depends on who asked.
  // (identical concurrent requests share one load: it runs on their shared signal)
  const load = async (signal: LifeSignal): Promise<Snapshot> => {
    const fetched = await fetchWithRoot(withSignal(ctx, signal), plan);
    const source = `${mapping.resource}|${plan.signature}|${order.canonical}|${fetched.digest}`;
    const same = ctx.lists.cache.sameSource(source);
    if (same) return { ...same, checkedAt: now };
    const { items, texts, times } = await translateOnce(ctx, fetched.records(), (record) => toV2(record, rules, capabilities));
    // a time this read moved (a record changed since it was last seen: updated now, created before)
    // is older in kept contents: they are not offered again, even to a caller whom v1 answers as it
    // answered then (a record seen for the first time moves nothing kept)
    if (times?.some((t) => t.updated >= now && t.created < t.updated)) ctx.lists.cache.stopSharing(mapping.resource);
    const kept: number[] = [];
    for (let i = 0; i < items.length; i += 1) if (plan.predicates.every((p) => p(items[i] as Json))) kept.push(i);
    // each kept item's sort key, computed once (by item index)
    const keys: KeyValue[][] = new Array(items.length);
    const sorted = sortItems(kept, order.keys, (i) => (keys[i] ??= keyOf(items[i] as Json)));
    // the times go into the kept texts: a store's times never change in place (a move makes a new
    // entry), so a page is one cut of the snapshot, not a join of its items
    const timed = timedTexts(ctx);
    return snapshotOf(
      sorted.length,
      (k) => timed(texts[sorted[k] as number] as string, times?.[sorted[k] as number]),
      now,
      source,
      sorted.map((i) => keys[i] ?? keyOf(items[i] as Json)),
    );
  };
  const itemAt = (snapshot: Snapshot, i: number) => JSON.parse(itemText(snapshot, i)) as Json;
  const { pageSize, skip } = page.params;
  // the sort keys kept from the sort; a snapshot given without them has them read from its texts
  const keyAt = (snapshot: Snapshot, i: number) => (snapshot.keys?.[i] as KeyValue[] | undefined) ?? keyOf(itemAt(snapshot, i));
  const seek = (snapshot: Snapshot) => (after ? seekAfter(itemCount(snapshot), after, order.keys, (i) => keyAt(snapshot, i)) : 0) + skip;
  const found = await ctx.lists.cache.lookup(key, load, ctx.signal);
  let snapshot = found.snapshot;
  // AIP-158: a kept snapshot is not a capability. A page it serves is re-authorized (once the last
  // check is older than LIST_REAUTH_MS) with one small v1 read: the page's first item, with the
  // caller's credentials. When v1 no longer shows it (access revoked, or the item gone), the
  // snapshot is dropped and read again from v1.
  if (!found.fresh && now - snapshot.checkedAt >= ctx.lists.reauthMs) {
    const count = itemCount(snapshot);
    const first = count === 0 ? undefined : Math.min(seek(snapshot), count - 1);
    if (await stillVisible(ctx, first === undefined ? undefined : itemAt(snapshot, first).uid)) snapshot.checkedAt = now;
    else {
      ctx.lists.cache.delete(key);
      ({ snapshot } = await ctx.lists.cache.lookup(key, load, ctx.signal));
    }
  }

  const count = itemCount(snapshot);
  const start = Math.min(seek(snapshot), count);
  const end = Math.min(start + pageSize, count);
  const nextPageToken = end > start && end < count ? ctx.lists.tokens.seal({ binding, after: keyAt(snapshot, end - 1), issuedAt: now }) : '';
  if (mapping.hydrate.length > 0) {
    const served: Json[] = [];
    for (let i = start; i < end; i += 1) served.push(itemAt(snapshot, i));
    return { [mapping.resource]: await hydrateItems(ctx, served), nextPageToken, totalCount: String(count), skipped: skip };
  }
  // the page cut from the kept texts: no item is serialized or joined again
  return new JsonText(
    `{"${mapping.resource}":[${itemsText(snapshot, start, end)}],"nextPageToken":${JSON.stringify(nextPageToken)},"totalCount":"${count}","skipped":${skip}}`,
  );
}
