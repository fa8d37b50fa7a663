import type { FieldViolation } from '../errors/api-error.js';
import { paramValues, type RawQuery } from './query-params.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
export const MAX_INT32 = 2_147_483_647;

export interface PageParams {
  pageSize: number;
  skip: number;
  pageToken: string;
  orderBy: string | undefined;
}

function integer(query: RawQuery, name: string): number | FieldViolation | undefined {
  const raw = paramValues(query, name).at(-1);
  if (raw === undefined || raw === '') return undefined;
  if (!/^-?\d{1,10}$/.test(raw)) return { field: name, description: `${name} must be an integer, got "${raw}"` };
  const n = Number(raw);
  if (n < 0) return { field: name, description: `${name} must not be negative` };
  // page_size and skip are int32 fields of the v2 request: the service refuses what they cannot hold
  if (n > MAX_INT32) return { field: name, description: `${name} must be at most ${MAX_INT32}` };
  return n;
}

/**
 * The page token of a list, under either spelling (`page_token`, `pageToken`), given once or
 * repeated: every value given must be the same one, since the rollout decides on it and the list
 * reads it (two different ones are a violation, not a pick). '' when none is given.
 */
export function pageTokenParam(query: RawQuery): string | FieldViolation {
  const given = paramValues(query, 'page_token').filter((v) => v !== '');
  const token = given[0] ?? '';
  for (const other of given) {
    if (other !== token)
      return { field: 'page_token', description: 'page_token was given more than once with different values (page_token and pageToken name one parameter)' };
  }
  return token;
}

/** page_size (0 or absent → 50, above 200 → 200), skip, page_token, order_by; every bad one named. */
export function parsePageParams(query: RawQuery): { ok: true; params: PageParams } | { ok: false; violations: FieldViolation[] } {
  const size = integer(query, 'page_size');
  const skip = integer(query, 'skip');
  const token = pageTokenParam(query);
  const violations = [size, skip, token].filter((v): v is FieldViolation => typeof v === 'object');
  if (violations.length > 0) return { ok: false, violations };
  const pageSize = size === undefined || size === 0 ? DEFAULT_PAGE_SIZE : Math.min(size as number, MAX_PAGE_SIZE);
  return {
    ok: true,
    params: {
      pageSize,
      skip: (skip as number | undefined) ?? 0,
      pageToken: token as string,
      orderBy: paramValues(query, 'order_by').at(-1),
    },
  };
}
