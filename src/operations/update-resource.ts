import { apiError, invalidFields } from '../errors/error-registry.js';
import { hydrateItems } from '../operations/hydrate-items.js';
import { paramValues, type RawQuery } from '../list/query-params.js';
import { valueNestsDeeperThan } from '../json/json-depth.js';
import { type Json, isObject } from '../json/json-path.js';
import { toV2 } from '../translate/v1-to-v2.js';
import { normalizeKeys, validateInput } from '../translate/validate-input.js';
import { parseFieldMask } from '../update/field-mask.js';
import { mergeMasked } from '../update/merge-masked.js';
import { type OperationContext, afterWrite } from './operation-context.js';
import { translateWithTimes, translateWritten } from './resource-times.js';
import { callV1, findV1, notFound, writeResult } from './v1-records.js';

// what a v2 record may nest (a v2 body's limit and some room); deeper v1 records are refused on read
export const MAX_RECORD_DEPTH = 125;
// a PATCH still reads records this deep, to write them back shallower
const REPAIR_READ_DEPTH = 100_000;

/** The first field of a v1 record nested deeper than a v2 record may be. */
function deepField(record: Json): string | undefined {
  return Object.keys(record).find((k) => valueNestsDeeperThan(record[k], MAX_RECORD_DEPTH));
}

/**
 * A v1 record as a Get shows it, but for the times the proxy keeps (reading them would count the
 * record as seen): a verified update's pre-image, whose times are not compared.
 */
export async function shownWithoutTimes(ctx: OperationContext, record: Json): Promise<Json> {
  const [item] = await hydrateItems(ctx, [toV2(record, ctx.resource.rules, ctx.resource.capabilities)]);
  return item as Json;
}

/**
 * `PATCH …/{uid}`: v1 only replaces whole records, so the proxy reads the record, changes the masked
 * fields, and PUTs it all back. Fields the mask does not name (and fields the mapping does not know)
 * go back as they were read; a write-only field v1 never shows (an IdP's client secret) is sent only
 * when the mask names it. Serialized per uid in this process.
 */
export async function updateResource(ctx: OperationContext, uid: string, rawBody: unknown, query: RawQuery): Promise<Json> {
  const { mapping, rules, capabilities } = ctx.resource;
  if (!isObject(rawBody)) throw invalidFields([{ field: 'body', description: 'the body must be a JSON object' }]);
  const maskParam = paramValues(query, 'update_mask').join(',');
  const parsed = parseFieldMask(maskParam, rawBody, rules);
  if (!parsed.ok) throw invalidFields(parsed.violations);
  const { fields } = parsed;
  // the body is checked as on create, for the fields this PATCH changes
  const heads = new Set(fields.map((f) => f.path[0] as string));
  const violations = validateInput(normalizeKeys(rawBody), ctx.resource, heads);
  if (violations.length > 0) throw invalidFields(violations);

  return ctx.locks.run(
    `${mapping.resource}/${uid}`,
    async (fence) => {
      // read deeper than a Get would, so a record stored too deep can be repaired by masking its field
      const current = await findV1(ctx, uid, REPAIR_READ_DEPTH);
      if (!current) throw notFound(ctx, uid);
      ctx.preImage?.(current);
      const record = mergeMasked(current, fields, ctx.resource);
      const tooDeep = deepField(record);
      if (tooDeep !== undefined) {
        const field = rules.outByV1.get(tooDeep)?.[0]?.v2.join('.') ?? tooDeep;
        throw apiError('RECORD_TOO_DEEP', { field, limit: MAX_RECORD_DEPTH });
      }
      // a PATCH that changes nothing writes nothing (and so moves no updateTime)
      // (a record that held a deep field is not the same as the one about to be written)
      if (deepField(current) === undefined && JSON.stringify(record) === JSON.stringify(mergeMasked(current, [], ctx.resource))) {
        const [same] = await hydrateItems(ctx, await translateWithTimes(ctx, [current], (r) => toV2(r, rules, capabilities)));
        return same as Json;
      }
      await fence();
      const written = await callV1(ctx, { method: 'PUT', path: `${mapping.v1.path}/${uid}`, json: record });
      if (!isObject(written)) throw apiError('V1_MALFORMED_WRITE', { resource: mapping.resource, operation: 'update' });
      const result = await translateWritten(ctx, uid, await writeResult(ctx, uid, written), false, (r) => toV2(r, rules, capabilities));
      afterWrite(ctx);
      const [item] = await hydrateItems(ctx, [result]);
      return item as Json;
    },
    ctx.signal,
  );
}
