import type { OperationContext } from '../operations/operation-context.js';
import { listV1 } from '../operations/v1-records.js';
import type { Json } from '../translate/json-path.js';
import { toV2 } from '../translate/v1-to-v2.js';
import { planFilters } from './plan-filters.js';
import type { RawQuery } from './query-params.js';

/**
 * `GET …/<plural>`: one v1 list call with the filters v1 can apply, then the proxy's own filters,
 * in uid order. (Cursors, order_by, skip and page sizes are the list engine's job.)
 */
export async function listResource(ctx: OperationContext, query: RawQuery): Promise<Json> {
  const plan = planFilters(ctx.resource, query);
  if (plan instanceof Error) throw plan;
  const { rules, capabilities, mapping } = ctx.resource;
  const items = (await listV1(ctx, plan.v1Query))
    .map((record) => toV2(record, rules, capabilities))
    .filter((item) => plan.predicates.every((p) => p(item)))
    .sort((a, b) => (String(a.uid) < String(b.uid) ? -1 : 1));
  return { [mapping.resource]: items, nextPageToken: '', totalCount: String(items.length), skipped: 0 };
}
