import { preconditionFailed } from '../errors/error-registry.js';
import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import { type OperationContext, afterWrite } from './operation-context.js';
import { forgetTimes } from './resource-times.js';
import { callV1, listV1 } from './v1-records.js';

/**
 * `DELETE …/{uid}`: the mapping's preconditions are checked first (a group with child repos), then v1
 * deletes; a v1 refusal with the same text is translated to the same precondition error.
 */
export async function deleteResource(ctx: OperationContext, uid: string): Promise<Record<string, never>> {
  const { mapping } = ctx.resource;
  for (const pre of mapping.deletePreconditions) {
    const filter = pre.scope === 'children' ? 'uidp.children_of' : 'uidp.descendants_of';
    const blocking = await listV1(ctx, { [filter]: uid }, pre.v1Path);
    if (blocking.length > 0) throw preconditionFailed({ type: pre.type, description: pre.description });
  }
  try {
    await callV1(ctx, { method: 'DELETE', path: `${mapping.v1.path}/${uid}` });
  } catch (err) {
    const pre = mapping.deletePreconditions.find((p) => err instanceof ApiError && err.code === GrpcCode.FAILED_PRECONDITION && err.detail === p.description);
    if (pre) throw preconditionFailed({ type: pre.type, description: pre.description });
    throw err;
  }
  await forgetTimes(ctx, uid);
  afterWrite(ctx);
  return {};
}
