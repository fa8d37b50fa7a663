import { createHash, randomUUID } from 'node:crypto';
import { callerFingerprint } from '../auth/caller-fingerprint.js';
import { callerIdentity } from '../auth/caller-identity.js';
import { apiError, invalidFields, resourceNotFound } from '../errors/error-registry.js';
import { canonicalJson } from '../json/canonical-json.js';
import type { Json } from '../json/json-path.js';
import type { IdempotencyStore } from '../stores/idempotency-store.js';
import { abortReason } from '../upstream/abort-reason.js';
import { type Exchange, type Side, sideOf } from './exchange.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
// how long a retry waits for the first request with its key to finish
const WAIT_MS = 30_000;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** An `Idempotency-Key` header as given (a create's, an admin command's): one of 1 to 255 visible ASCII characters, else INVALID_ARGUMENT naming it. */
export function idempotencyKeyOf(value: string | string[] | undefined): string {
  if (typeof value !== 'string' || !KEY_FORMAT.test(value)) {
    throw invalidFields([{ field: 'Idempotency-Key', description: 'must be one header of 1 to 255 visible ASCII characters' }]);
  }
  return value;
}

/** What a keyed create served: its answer, and the created resource as v2 JSON when it was created (none: an error answer). */
export interface CreateServed<T> {
  served: T;
  created: Json | undefined;
}

export interface KeyedCreateDeps {
  store: IdempotencyStore;
  /** whether the caller of `ex` sees the resource `uid` on `side` (a retry with another token of the same caller) */
  visible(ex: Exchange, side: Side, uid: string): Promise<boolean>;
  warn(message: string, err?: unknown): void;
}

/** A create answered from its key's record: the first create's resource, and the side that made it. */
export interface Replayed {
  replayed: Json;
  side: Side;
}

/**
 * A create with an `Idempotency-Key`, whichever side serves it: the first request with the key (per
 * caller: the subject of its JWT, else its token) runs; a retry with the same key and the same
 * request within 24 h gets the first answer without a second create (on either side, whatever the
 * rollout says now), waiting while the first still runs; the same key with another request is
 * INVALID_ARGUMENT. A first request that fails releases the key, so a retry runs again. The claim
 * is a lease its owner renews while the create runs.
 */
export async function keyedCreate<T>(ex: Exchange, deps: KeyedCreateDeps, create: () => Promise<CreateServed<T>>): Promise<T | Replayed> {
  const key = idempotencyKeyOf(ex.idempotencyKey);
  const { store } = deps;
  const resource = ex.resource.mapping.resource;
  const id = createHash('sha256')
    .update(`${callerIdentity(ex.origin.authorization)}\0${resource}\0${key}`)
    .digest('base64url');
  // the same create through either door: resource, parent and the body's canonical text
  const request = createHash('sha256')
    .update(`${resource}\0${ex.input.uid}\0${canonicalJson(ex.input.body)}`)
    .digest('base64url');
  const owner = randomUUID();
  const by = callerFingerprint(ex.origin.authorization);
  const until = Date.now() + WAIT_MS;
  let pause = 5;
  for (;;) {
    const claim = await store.claim(id, request, owner, store.leaseMs);
    if (claim.state === 'mismatch') {
      throw invalidFields([{ field: 'Idempotency-Key', description: 'was already used with another request; use a new key for a new request' }]);
    }
    if (claim.state === 'done') return replay(ex, deps, claim.answer, claim.by === by, claim.side ?? 'translate');
    if (claim.state === 'owner') break;
    if (Date.now() >= until) throw apiError('IDEMPOTENCY_BUSY');
    if (ex.origin.signal?.aborted) throw abortReason(ex.origin.signal);
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 100);
  }
  const renewing = setInterval(() => void store.renew(id, owner, store.leaseMs).catch(() => undefined), store.leaseMs / 3);
  renewing.unref();
  let made: CreateServed<T>;
  try {
    made = await create();
  } catch (err) {
    clearInterval(renewing);
    await free(deps, id, owner);
    throw err;
  }
  clearInterval(renewing);
  if (made.created === undefined) {
    await free(deps, id, owner);
    return made.served;
  }
  // created: the answer is the create's, whether or not the record of it could be kept
  const kept = await store
    .complete(id, owner, { request, answer: JSON.stringify(made.created), by, side: sideOf(ex) }, IDEMPOTENCY_TTL_MS)
    .catch((e: unknown) => {
      deps.warn('Idempotency-Key: created, but the answer could not be recorded; a retry within the lease waits, a later one creates again', e);
      return true;
    });
  if (!kept)
    deps.warn("Idempotency-Key: created after the claim on its key had lapsed and another request took it; the record of the key is the later request's");
  return made.served;
}

/** The key is free for a retry; a store that cannot free it lets the claim lapse after its lease. */
async function free(deps: KeyedCreateDeps, id: string, owner: string): Promise<void> {
  await deps.store.release(id, owner).catch((e: unknown) => deps.warn('Idempotency-Key: a failed create could not free its key', e));
}

/**
 * The first answer, to a retry: as it is when the retry carries the token the create was made
 * with; with another token of the same caller (a refreshed JWT, whose claims the proxy does not
 * verify), only once the side that made it shows this token the created resource, so a forged
 * token naming someone else's subject reads nothing.
 */
async function replay(ex: Exchange, deps: KeyedCreateDeps, answer: string, sameToken: boolean, side: Side): Promise<Replayed> {
  const first = JSON.parse(answer) as Json;
  if (sameToken) return { replayed: first, side };
  const uid = typeof first.uid === 'string' ? first.uid : '';
  if (uid === '' || !(await deps.visible(ex, side, uid))) throw resourceNotFound(ex.resource.mapping.resource, uid);
  return { replayed: first, side };
}
