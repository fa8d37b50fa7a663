import { normalizeTimestamp } from '../translate/timestamp.js';
import { type Json, getPath } from '../translate/json-path.js';
import type { MetaTimes } from '../meta/meta-store.js';
import type { OperationContext } from './operation-context.js';

const keyOf = (ctx: OperationContext, uid: unknown) => `${ctx.resource.mapping.resource}|${String(uid)}`;

function sinceOf(ctx: OperationContext, record: Json): number | undefined {
  const path = ctx.resource.meta?.since;
  if (!path) return undefined;
  const text = normalizeTimestamp(getPath(record, path));
  const ms = typeof text === 'string' ? Date.parse(text) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

/** A copy of the record with the side store's times where the mapping reads them (the record itself is left as v1 sent it). */
function stamped(ctx: OperationContext, record: Json, times: MetaTimes): Json {
  const fields = ctx.resource.meta;
  const out: Json = { ...record };
  if (fields?.created) out[fields.created] = new Date(times.created).toISOString();
  if (fields?.updated) out[fields.updated] = new Date(times.updated).toISOString();
  return out;
}

/** Records read from v1, with the times v1 does not keep (first seen, or moved on a change). */
export function withTimes(ctx: OperationContext, records: readonly Json[]): Json[] {
  if (!ctx.resource.meta) return records as Json[];
  const key = ctx.resource.mapping.v1.key;
  const times = ctx.meta.observe(
    records.map((record) => ({ key: keyOf(ctx, record[key]), record, since: sinceOf(ctx, record) })),
    ctx.now(),
  );
  return records.map((record, i) => stamped(ctx, record, times[i] as MetaTimes));
}

/** A record written through the proxy: its times are exact, and the next read adopts its fingerprint. */
export async function withWriteTimes(ctx: OperationContext, uid: string, record: Json, created: boolean): Promise<Json> {
  if (!ctx.resource.meta) return record;
  return stamped(ctx, record, await ctx.meta.written(keyOf(ctx, uid), ctx.now(), created));
}

export async function forgetTimes(ctx: OperationContext, uid: string): Promise<void> {
  if (ctx.resource.meta) await ctx.meta.removed(keyOf(ctx, uid));
}
