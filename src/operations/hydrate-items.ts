import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import { type OperationContext, forResource, withSignal } from './operation-context.js';
import { listV1 } from './v1-records.js';
import { fillHydrated, hydrationUids } from '../hydrate/fill-hydrated.js';
import type { Json } from '../json/json-path.js';
import { toV2 } from '../translate/v1-to-v2.js';
import type { LifeSignal } from '../upstream/request-life.js';

type Hydration = CompiledResource['mapping']['hydrate'][number];

/** One v1 list call for all the uids: what the caller may see of them, by uid, in the v2 shape. */
async function lookUp(ctx: OperationContext, from: CompiledResource, h: Hydration, uids: string[], signal: LifeSignal): Promise<Map<string, Json>> {
  const wanted = new Set(uids);
  let records: Json[];
  try {
    records = await listV1(forResource(withSignal(ctx, signal, 'lookup'), from), { [h.batchBy]: uids });
  } catch (err) {
    // a caller who may not list them at all sees the objects without the looked-up fields
    if (err instanceof ApiError && (err.code === GrpcCode.PERMISSION_DENIED || err.code === GrpcCode.NOT_FOUND)) return new Map();
    throw err;
  }
  const found = new Map<string, Json>();
  for (const record of records) {
    const uid = record[from.mapping.v1.key];
    if (typeof uid === 'string' && wanted.has(uid)) found.set(uid, toV2(record, from.rules, from.capabilities));
  }
  return found;
}

/**
 * Completes the objects the mapping's `hydrate` names (a role binding's identity gets its name and
 * description): one batched, per-caller cached lookup for the whole page. Objects the caller cannot
 * see keep empty fields rather than failing the item.
 */
export async function hydrateItems(ctx: OperationContext, items: Json[]): Promise<Json[]> {
  for (const h of ctx.resource.mapping.hydrate) {
    const from = ctx.resources.get(h.from) as CompiledResource;
    const at = h.at.split('.');
    const uids = hydrationUids(items, at);
    if (uids.length === 0) continue;
    const found = await ctx.lookups.getMany(`${ctx.caller}|${h.from}|`, uids, (missing, signal) => lookUp(ctx, from, h, missing, signal), ctx.signal);
    fillHydrated(items, at, h.fields, found);
  }
  return items;
}
