import { wrongMethod } from '../mapping/path-methods.js';
import { requireUid } from '../errors/require-uid.js';
import type { Json } from '../json/json-path.js';
import type { JsonText } from '../json/json-text.js';
import { createResource } from '../operations/create-resource.js';
import { deleteResource } from '../operations/delete-resource.js';
import { getResource } from '../operations/get-resource.js';
import { listResource } from '../operations/list-resource.js';
import type { OperationContext } from '../operations/operation-context.js';
import { updateResource } from '../operations/update-resource.js';
import type { Operation } from '../rollout/rollout-config.js';
import type { Exchange } from './exchange.js';

type Translate = (ctx: OperationContext, ex: Exchange) => Promise<Json | JsonText>;

/** The five v2 operations over v1: the one dispatch table both doors use. */
const OPERATIONS: Record<Operation, Translate> = {
  get: (ctx, ex) => getResource(ctx, requireUid(ex.input.uid, ex.input.uidField)),
  list: (ctx, ex) => listResource(ctx, ex.input.query),
  create: (ctx, ex) => {
    const { uid, uidField, body } = ex.input;
    // (a create with an Idempotency-Key is claimed by the pipeline, whichever side serves it)
    return createResource(ctx, uid === '' && ctx.resource.mapping.rootParent ? '' : requireUid(uid, uidField), body);
  },
  update: (ctx, ex) => updateResource(ctx, requireUid(ex.input.uid, ex.input.uidField), ex.input.body, ex.input.query),
  delete: (ctx, ex) => deleteResource(ctx, requireUid(ex.input.uid, ex.input.uidField)),
};

/**
 * Serves an exchange by translation onto v1, if its resource's mapping serves the operation (an
 * anonymous request never gets here: the pipeline refuses it before any side is chosen).
 */
export function translateExchange(ctx: OperationContext, ex: Exchange): Promise<Json | JsonText> {
  const { v2 } = ex.resource.mapping;
  if (!v2.operations.includes(ex.operation))
    throw wrongMethod(v2, ex.operation, ex.named, ex.operation === 'list' || ex.input.uid === '' ? 'collection' : 'item');
  return OPERATIONS[ex.operation](ctx, ex);
}
