import { createHash, hash } from 'node:crypto';
import type { ApiError } from '../errors/api-error.js';
import { apiError, resourceNotFound } from '../errors/error-registry.js';
import { type Json, isObject } from '../json/json-path.js';
import type { QueryValues, V1Answer, V1Request } from '../upstream/v1-client.js';
import { v1ErrorToApiError } from '../upstream/v1-error.js';
import { inV2Words } from '../translate/v1-vocabulary.js';
import type { OperationContext } from './operation-context.js';

/** One v1 call as the request's (its credentials, request id, life and trace headers); a non-2xx answer becomes its ApiError. */
export async function callV1(ctx: OperationContext, req: V1Request): Promise<unknown> {
  return refusedUnless2xx(ctx, await ctx.v1.call(req, ctx)).body;
}

function refusedUnless2xx(ctx: OperationContext, answer: V1Answer): V1Answer {
  if (answer.status < 200 || answer.status > 299) {
    const err = v1ErrorToApiError(answer.status, answer.body);
    throw apiError('V1_REFUSED', { message: inV2Words(err.detail, ctx.resources.values()) }, err.details, err.code);
  }
  return answer;
}

const MAX_V1_PAGES = 10_000;
// Asked of a v1 list that pages itself, so a large collection comes in few calls.
const V1_PAGE_SIZE = '1000';

/** A whole v1 collection as read: its digest, and its records (parsed when asked for). */
export interface V1Collection {
  /** sha256 of the answer text(s): equal digests, the same answer byte for byte */
  digest: string;
  records: () => Json[];
}

/**
 * The whole v1 collection for a list: one call, or for a v1 list that pages itself (advisories) every
 * page in turn. The text of a single answer is parsed only when its records are asked for: a list that
 * has already translated this very answer for another caller does not parse it again.
 */
export async function fetchV1Collection(ctx: OperationContext, query: QueryValues): Promise<V1Collection> {
  const { path, paged } = ctx.resource.mapping.v1;
  if (!paged) {
    const text = await ctx.v1.fetchText({ method: 'GET', path, query }, ctx);
    // a refusal is parsed now: it is an error, not a collection
    if (text.status < 200 || text.status > 299) refusedUnless2xx(ctx, ctx.v1.parse(text));
    return { digest: hash('sha256', text.text, 'base64url'), records: () => itemsOf(ctx, ctx.v1.parse(text).body) };
  }
  const items: Json[] = [];
  const digest = createHash('sha256');
  let token = '';
  for (let page = 0; page < MAX_V1_PAGES; page += 1) {
    const text = await ctx.v1.fetchText({ method: 'GET', path, query: { ...query, page_size: V1_PAGE_SIZE, page_token: token || undefined } }, ctx);
    const answer = refusedUnless2xx(ctx, ctx.v1.parse(text));
    digest.update(text.text).update('\n');
    items.push(...itemsOf(ctx, answer.body));
    token = isObject(answer.body) && typeof answer.body.nextPageToken === 'string' ? answer.body.nextPageToken : '';
    if (token === '') return { digest: digest.digest('base64url'), records: () => items };
  }
  throw apiError('V1_ENDLESS_PAGING', { resource: ctx.resource.mapping.resource, limit: MAX_V1_PAGES });
}

/** The items of a v1 list answer, checked: an array of objects each holding a string key. */
export function itemsOf(ctx: OperationContext, body: unknown): Json[] {
  const key = ctx.resource.mapping.v1.key;
  const items = isObject(body) ? body.items : undefined;
  if (items === undefined && isObject(body)) return [];
  if (!Array.isArray(items) || !items.every((i) => isObject(i) && typeof i[key] === 'string')) {
    throw apiError('V1_MALFORMED_LIST', { resource: ctx.resource.mapping.resource });
  }
  return items as Json[];
}

/** Every v1 record matching `query` (v1 lists do not page; advisories are asked for all at once). */
export async function listV1(ctx: OperationContext, query: QueryValues, path = ctx.resource.mapping.v1.path, maxDepth?: number): Promise<Json[]> {
  return itemsOf(ctx, await callV1(ctx, { method: 'GET', path, query, ...(maxDepth !== undefined ? { maxDepth } : {}) }));
}

/** Get by uid is a v1 List filtered by uid; v1's filtering is not trusted, the key is checked. */
export async function findV1(ctx: OperationContext, uid: string, maxDepth?: number): Promise<Json | undefined> {
  const { key, getBy } = ctx.resource.mapping.v1;
  const items = await listV1(ctx, { [getBy]: uid }, undefined, maxDepth);
  return items.find((item) => item[key] === uid);
}

/**
 * What a write answers with: where v1's write answer is thinner than its list item (role bindings,
 * invites), the record read back (`replace`) or the read-back with the write answer laid over it
 * (`merge`); otherwise the write answer itself.
 */
export async function writeResult(ctx: OperationContext, uid: string, written: Json): Promise<Json> {
  const mode = ctx.resource.mapping.v1.createReadback;
  if (mode === 'none') return written;
  const readback = await findV1(ctx, uid);
  if (!readback) return written;
  return mode === 'merge' ? { ...readback, ...written } : readback;
}

export function notFound(ctx: OperationContext, uid: string): ApiError {
  return resourceNotFound(ctx.resource.mapping.resource, uid);
}
