import { hydrateItems } from '../operations/hydrate-items.js';
import type { Json } from '../json/json-path.js';
import { toV2 } from '../translate/v1-to-v2.js';
import type { OperationContext } from './operation-context.js';
import { translateWithTimes } from './resource-times.js';
import { findV1, notFound } from './v1-records.js';

/** `GET …/{uid}`: the v1 List with the uid filter, translated and completed; nothing found → NOT_FOUND. */
export async function getResource(ctx: OperationContext, uid: string): Promise<Json> {
  const record = await findV1(ctx, uid);
  if (!record) throw notFound(ctx, uid);
  const { rules, capabilities } = ctx.resource;
  const item = await hydrateItems(ctx, await translateWithTimes(ctx, [record], (r) => toV2(r, rules, capabilities)));
  return item[0] as Json;
}
