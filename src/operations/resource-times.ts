import type { MetaTimes } from '../meta/meta-store.js';
import { normalizeTimestamp } from '../translate/timestamp.js';
import { type Json, getPath } from '../json/json-path.js';
import type { OperationContext } from './operation-context.js';

const keyOf = (ctx: OperationContext, uid: unknown) => `${ctx.resource.mapping.resource}|${String(uid)}`;

function sinceOf(ctx: OperationContext, record: Json): number | undefined {
  const path = ctx.resource.meta?.since;
  if (!path) return undefined;
  const text = normalizeTimestamp(getPath(record, path));
  const ms = typeof text === 'string' ? Date.parse(text) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

/** Sets the side store's times on a v2 item, over anything v1 may have sent under those names. */
function stamp(ctx: OperationContext, item: Json, times: MetaTimes): Json {
  const fields = ctx.resource.meta;
  if (fields?.created) item[fields.created] = times.createdText;
  if (fields?.updated) item[fields.updated] = times.updatedText;
  return item;
}

/**
 * v1 records read from v1, translated (`translate`), with the times v1 does not keep: first seen,
 * or moved when the record changed since the last read.
 */
export async function translateWithTimes(ctx: OperationContext, records: readonly Json[], translate: (record: Json) => Json): Promise<Json[]> {
  if (!ctx.resource.meta) return records.map(translate);
  const key = ctx.resource.mapping.v1.key;
  const times = await ctx.meta.observe(
    records.map((record) => ({ key: keyOf(ctx, record[key]), record, since: sinceOf(ctx, record) })),
    ctx.now(),
  );
  return records.map((record, i) => stamp(ctx, translate(record), times[i] as MetaTimes));
}

/** A record written through the proxy, translated: its times are exact, and the next read adopts its fingerprint. */
export async function translateWritten(ctx: OperationContext, uid: string, record: Json, created: boolean, translate: (record: Json) => Json): Promise<Json> {
  const item = translate(record);
  if (!ctx.resource.meta) return item;
  return stamp(ctx, item, await ctx.meta.written(keyOf(ctx, uid), ctx.now(), created));
}

export async function forgetTimes(ctx: OperationContext, uid: string): Promise<void> {
  if (ctx.resource.meta) await ctx.meta.removed(keyOf(ctx, uid));
}
