import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import { paramValues, type RawQuery } from '../list/query-params.js';
import { type Json, deletePath, getPath, isObject, setPath } from '../translate/json-path.js';
import { v1Path } from '../translate/v1-path.js';
import { toV2 } from '../translate/v1-to-v2.js';
import { normalizeKeys, validateInput } from '../translate/validate-input.js';
import { parseFieldMask } from '../update/field-mask.js';
import { type OperationContext, afterWrite } from './operation-context.js';
import { callV1, findV1, notFound, writeResult } from './v1-records.js';

/**
 * `PATCH …/{uid}`: v1 only replaces whole records, so the proxy reads the record, changes the masked
 * fields, and PUTs it all back. Fields the mask does not name (and fields the mapping does not know)
 * go back as they were read. Serialized per uid in this process.
 */
export async function updateResource(ctx: OperationContext, uid: string, rawBody: unknown, query: RawQuery): Promise<Json> {
  const { mapping, rules, capabilities } = ctx.resource;
  if (!isObject(rawBody)) throw ApiError.invalidArgument([{ field: 'body', description: 'the body must be a JSON object' }]);
  const body = normalizeKeys(rawBody);
  const maskParam = paramValues(query, 'update_mask').join(',');
  const parsed = parseFieldMask(maskParam === '' ? undefined : maskParam, body, rules);
  if (!parsed.ok) throw ApiError.invalidArgument(parsed.violations);
  const mask = parsed.mask;
  const paths = mask.kind === 'all' ? [...rules.inByV2.keys()].map((k) => [k]) : mask.paths;
  const heads = new Set(paths.map((p) => p[0] as string));
  const violations = validateInput(body, ctx.resource).filter((v) => heads.has(v.field));
  if (violations.length > 0) throw ApiError.invalidArgument(violations);

  return ctx.locks.run(`${mapping.resource}/${uid}`, async () => {
    const current = await findV1(ctx, uid);
    if (!current) throw notFound(ctx, uid);
    const record: Json = structuredClone(current);
    for (const [field, from] of Object.entries(mapping.v1.writeBack)) record[field] = getPath(current, from.split('.'));
    for (const path of paths) {
      const target = v1Path(rules, path);
      const value = getPath(body, path);
      if (value === undefined) deletePath(record, target.path);
      else setPath(record, target.path, target.convert(value, capabilities));
    }
    const written = await callV1(ctx, { method: 'PUT', path: `${mapping.v1.path}/${uid}`, json: record });
    if (!isObject(written)) throw new ApiError(GrpcCode.UNAVAILABLE, `the v1 backend sent a malformed ${mapping.resource} update answer`);
    const result = await writeResult(ctx, uid, written);
    afterWrite(ctx);
    return toV2(result, rules, capabilities);
  });
}
