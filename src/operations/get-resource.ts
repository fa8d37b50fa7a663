import { hydrateItems } from '../operations/hydrate-items.js';
import type { Json } from '../json/json-path.js';
import { toV2 } from '../translate/v1-to-v2.js';
import type { OperationContext } from './operation-context.js';
import { timedText, translateOnce, translateWithTimes } from './resource-times.js';
import { JsonText } from '../json/json-text.js';
import { findV1, notFound } from './v1-records.js';

/** `GET …/{uid}`: the v1 List with the uid filter, translated and completed; nothing found → NOT_FOUND. */
export async function getResource(ctx: OperationContext, uid: string): Promise<Json | JsonText> {
  const record = await findV1(ctx, uid);
  if (!record) throw notFound(ctx, uid);
  const { rules, capabilities } = ctx.resource;
  const translate = (r: Json) => toV2(r, rules, capabilities);
  if (ctx.resource.meta && ctx.resource.mapping.hydrate.length === 0) {
    // the text made for the times' change check is the answer's text too: nothing is serialized twice
    const once = await translateOnce(ctx, [record], translate);
    return new JsonText(timedText(ctx, once.texts[0] as string, once.times?.[0]), once.items[0]);
  }
  const item = await hydrateItems(ctx, await translateWithTimes(ctx, [record], translate));
  return item[0] as Json;
}
