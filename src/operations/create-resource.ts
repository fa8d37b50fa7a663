import { apiError, invalidFields } from '../errors/error-registry.js';
import { hydrateItems } from '../operations/hydrate-items.js';
import { type Json, isObject } from '../json/json-path.js';
import { toV1 } from '../translate/v2-to-v1.js';
import { toV2 } from '../translate/v1-to-v2.js';
import { normalizeKeys, objectBody, validateInput } from '../translate/validate-input.js';
import { type OperationContext, afterWrite } from './operation-context.js';
import { translateWritten } from './resource-times.js';
import { callV1, writeResult } from './v1-records.js';

/**
 * `POST …/{parent}`: the body is validated before anything reaches v1, translated, created under the
 * parent, and the answer translated back (read back first where v1's create answer is thinner).
 */
export async function createResource(ctx: OperationContext, parent: string, rawBody: unknown): Promise<Json> {
  const { mapping, rules, capabilities } = ctx.resource;
  const given = objectBody(rawBody);
  if (!given) throw invalidFields([{ field: 'body', description: 'the body must be a JSON object' }]);
  const body = normalizeKeys(given);
  const violations = validateInput(body, ctx.resource);
  if (violations.length > 0) throw invalidFields(violations);
  const v1Body = toV1(body, rules, capabilities, 'drop');
  const created = await callV1(ctx, {
    method: 'POST',
    path: `${mapping.v1.path}/${parent}`,
    json: v1Body,
  });
  if (!isObject(created) || typeof created[mapping.v1.key] !== 'string') {
    throw apiError('V1_MALFORMED_WRITE', { resource: mapping.resource, operation: 'create' });
  }
  const uid = created[mapping.v1.key] as string;
  const record = await translateWritten(ctx, uid, await writeResult(ctx, uid, created), true, (r) => toV2(r, rules, capabilities));
  afterWrite(ctx);
  const [item] = await hydrateItems(ctx, [record]);
  return item as Json;
}
