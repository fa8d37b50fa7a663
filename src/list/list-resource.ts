import { ApiError } from '../errors/api-error.js';
import { type OperationContext, snapshotPrefix } from '../operations/operation-context.js';
import { fetchV1Collection } from '../operations/v1-records.js';
import type { Json } from '../translate/json-path.js';
import { toV2 } from '../translate/v1-to-v2.js';
import { parseOrderBy } from './order-by.js';
import { parsePageParams } from './page-params.js';
import { PageTokenCodec } from './page-token.js';
import { planFilters } from './plan-filters.js';
import type { RawQuery } from './query-params.js';
import type { Snapshot } from './snapshot-cache.js';
import { type KeyValue, seekAfter, sortItems } from './sorted-items.js';

const invalidToken = (description: string) => ApiError.invalidArgument([{ field: 'page_token', description }]);

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
  if (!page.ok) throw ApiError.invalidArgument(page.violations);
  const order = parseOrderBy(page.params.orderBy, mapping.list);
  if (!order.ok) throw ApiError.invalidArgument([order.violation]);

  const binding = PageTokenCodec.bindingOf([mapping.resource, plan.signature, order.canonical, ctx.caller]);
  const now = ctx.lists.now();
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

  const snapshot = await ctx.lists.cache.get(`${snapshotPrefix(ctx)}${binding}`, async (): Promise<Snapshot> => {
    const fetched = await fetchV1Collection(ctx, plan.v1Query);
    const items = fetched.items.map((record) => toV2(record, rules, capabilities)).filter((item) => plan.predicates.every((p) => p(item)));
    return { ...sortItems(items, order.keys), bytes: fetched.bytes * 2 };
  });

  const { pageSize, skip } = page.params;
  const start = (after ? seekAfter(snapshot.keys, after, order.keys) : 0) + skip;
  const items = snapshot.items.slice(start, start + pageSize);
  const end = start + items.length;
  const nextPageToken =
    items.length > 0 && end < snapshot.items.length
      ? ctx.lists.tokens.seal({ binding, after: snapshot.keys[end - 1] as KeyValue[], issuedAt: now })
      : '';
  return { [mapping.resource]: items, nextPageToken, totalCount: String(snapshot.items.length), skipped: skip };
}
