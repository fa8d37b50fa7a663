import { createHash, randomUUID } from 'node:crypto';
import { callerIdentity } from '../auth/caller-identity.js';
import { apiError, invalidFields } from '../errors/error-registry.js';
import type { Json } from '../json/json-path.js';
import { abortReason } from '../upstream/abort-reason.js';
import type { OperationContext } from './operation-context.js';
import { findV1, notFound } from './v1-records.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
// how long a claim waits for its first request, and how long a dead owner's claim blocks the key
const WAIT_MS = 30_000;
const PENDING_MS = 60_000;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/**
 * The first answer, to a retry: as it is when the retry carries the token the create was made
 * with; with another token of the same caller (a refreshed JWT, whose claims the proxy does not
 * verify), only once v1 shows this token the created record, so a forged token naming someone
 * else's subject reads nothing.
 */
async function replayed(ctx: OperationContext, answer: string, by: string | undefined): Promise<Json> {
  const first = JSON.parse(answer) as Json;
  if (by === ctx.caller) return first;
  const uid = typeof first.uid === 'string' ? first.uid : '';
  if (uid === '' || !(await findV1(ctx, uid))) throw notFound(ctx, uid);
  return first;
}

/**
 * A create with an `Idempotency-Key`: the first request with the key (per caller: the subject of
 * its JWT, else its token) runs; a retry with the same key and the same request within 24 h gets
 * the first answer without a second v1 create, waiting if the first is still running; the same key
 * with another request is INVALID_ARGUMENT. A failed first request releases the key, so a retry
 * runs again.
 */
export async function idempotentCreate(
  ctx: OperationContext,
  key: string | string[] | undefined,
  /** the request, the same whichever door it came by (a create retried through the other door is the same create) */
  request: string,
  create: () => Promise<Json>,
): Promise<Json> {
  if (key === undefined) return create();
  if (typeof key !== 'string' || !KEY_FORMAT.test(key)) {
    throw invalidFields([{ field: 'Idempotency-Key', description: 'must be one header of 1 to 255 visible ASCII characters' }]);
  }
  const store = ctx.idempotency;
  const id = createHash('sha256')
    .update(`${callerIdentity(ctx.authorization)}\0${ctx.resource.mapping.resource}\0${key}`)
    .digest('base64url');
  const owner = randomUUID();
  const hash = createHash('sha256').update(request).digest('base64url');
  const until = Date.now() + WAIT_MS;
  let pause = 5;
  for (;;) {
    const claim = await store.claim(id, hash, owner, PENDING_MS);
    if (claim.state === 'mismatch') {
      throw invalidFields([{ field: 'Idempotency-Key', description: 'was already used with another request; use a new key for a new request' }]);
    }
    if (claim.state === 'done') return replayed(ctx, claim.answer, claim.by);
    if (claim.state === 'owner') break;
    if (Date.now() >= until) throw apiError('IDEMPOTENCY_BUSY');
    if (ctx.signal?.aborted) throw abortReason(ctx.signal);
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 100);
  }
  let result: Json;
  try {
    result = await create();
  } catch (err) {
    // the key is free for a retry; a store that cannot free it lets the claim lapse after PENDING_MS
    await store.release(id, owner).catch((e: unknown) => ctx.warn('Idempotency-Key: a failed create could not free its key', e));
    throw err;
  }
  // v1 has created it: the answer is the create's, whether or not the record of it could be kept
  const kept = await store.complete(id, owner, { request: hash, answer: JSON.stringify(result), by: ctx.caller }, IDEMPOTENCY_TTL_MS).catch((e: unknown) => {
    ctx.warn('Idempotency-Key: created, but the answer could not be recorded; a retry within a minute waits, a later one creates again', e);
    return true;
  });
  // the claim lapsed while v1 was creating (PENDING_MS) and another request holds the key now
  if (!kept) ctx.warn("Idempotency-Key: created after the claim on its key had lapsed; the record of the key is the later request's");
  return result;
}
