import { type MetaTimes, fingerprintOf, writtenEntry } from '../meta/meta-store.js';
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

/** Sets the side store's times on a v2 item, over anything v1 may have sent under those names (an empty text: none). */
function stamp(ctx: OperationContext, item: Json, times: MetaTimes): Json {
  const fields = ctx.resource.meta;
  if (fields?.created && times.createdText !== '') item[fields.created] = times.createdText;
  if (fields?.updated) item[fields.updated] = times.updatedText;
  return item;
}

/** v1 records translated once: the v2 items, the JSON text of each before the times, and the times. */
export interface TranslatedRecords {
  /** the v2 items, times stamped */
  items: Json[];
  /** each item's JSON text without the synthesized times (what a list snapshot keeps) */
  texts: string[];
  /** the synthesized times of each item, when the resource has them */
  times: MetaTimes[] | undefined;
}

/**
 * v1 records read from v1, translated (`translate`) and rendered to JSON once, with the times v1 does
 * not keep: first seen, or moved when the item's text changed since the last read (the text is the
 * change check, so nothing is serialized twice).
 */
export async function translateOnce(ctx: OperationContext, records: readonly Json[], translate: (record: Json) => Json): Promise<TranslatedRecords> {
  const fields = ctx.resource.meta;
  const items = records.map(translate);
  if (fields) {
    // anything v1 sent under those names is replaced by the store's times
    for (const item of items) {
      if (fields.created && Object.hasOwn(item, fields.created)) delete item[fields.created];
      if (fields.updated && Object.hasOwn(item, fields.updated)) delete item[fields.updated];
    }
  }
  const texts = items.map((item) => JSON.stringify(item));
  if (!fields) return { items, texts, times: undefined };
  const key = ctx.resource.mapping.v1.key;
  const times = await ctx.meta.observe(
    records.map((record, i) => ({ key: keyOf(ctx, record[key]), fingerprint: fingerprintOf(texts[i] as string), since: sinceOf(ctx, record) })),
    ctx.now(),
  );
  for (let i = 0; i < items.length; i += 1) stamp(ctx, items[i] as Json, times[i] as MetaTimes);
  return { items, texts, times };
}

/** v1 records read from v1, translated, with the times v1 does not keep. */
export async function translateWithTimes(ctx: OperationContext, records: readonly Json[], translate: (record: Json) => Json): Promise<Json[]> {
  // no times, no change check: nothing needs the items' text (a Get would render it for nothing)
  if (!ctx.resource.meta) return records.map(translate);
  return (await translateOnce(ctx, records, translate)).items;
}

/**
 * Adds times to items' JSON texts (from `translateOnce`), as the client sees them. The fields added
 * are kept for the last times seen: the items of one read mostly share them.
 */
export function timedTexts(ctx: OperationContext): (text: string, times: MetaTimes | undefined) => string {
  const fields = ctx.resource.meta;
  let created: string | undefined;
  let updated: string | undefined;
  let added = '';
  return (text, times) => {
    if (!fields || !times) return text;
    if (times.createdText !== created || times.updatedText !== updated) {
      created = times.createdText;
      updated = times.updatedText;
      added = (fields.created ? `,"${fields.created}":"${created}"` : '') + (fields.updated ? `,"${fields.updated}":"${updated}"` : '');
    }
    if (added === '') return text;
    return text === '{}' ? `{${added.slice(1)}}` : `${text.slice(0, -1)}${added}}`;
  };
}

/** An item's JSON text (from `translateOnce`) with its times added, as the client sees it. */
export function timedText(ctx: OperationContext, text: string, times: MetaTimes | undefined): string {
  return timedTexts(ctx)(text, times);
}

/**
 * A record written through the proxy, translated: its times are exact, and the next read adopts its
 * fingerprint. v1 has the write already, so a times store that fails (Redis away) does not fail it:
 * the answer carries the write's own time (a create's createTime is that too; an update's is left
 * out, being unknown), and the failure is logged.
 */
export async function translateWritten(ctx: OperationContext, uid: string, record: Json, created: boolean, translate: (record: Json) => Json): Promise<Json> {
  const item = translate(record);
  const fields = ctx.resource.meta;
  if (!fields) return item;
  const now = ctx.now();
  try {
    return stamp(ctx, item, await ctx.meta.written(keyOf(ctx, uid), now, created));
  } catch (err) {
    ctx.warn(`${ctx.resource.mapping.resource} ${uid}: written to v1, but its times could not be kept`, err);
    const times = writtenEntry(undefined, now, true);
    if (fields.created && Object.hasOwn(item, fields.created)) delete item[fields.created];
    return stamp(ctx, item, created ? times : { ...times, createdText: '' });
  }
}

/** A delete through the proxy forgets the record's times; v1 has deleted it already, so a store failing is only logged. */
export async function forgetTimes(ctx: OperationContext, uid: string): Promise<void> {
  if (!ctx.resource.meta) return;
  try {
    await ctx.meta.removed(keyOf(ctx, uid));
  } catch (err) {
    ctx.warn(`${ctx.resource.mapping.resource} ${uid}: deleted in v1, but its times could not be forgotten`, err);
  }
}
