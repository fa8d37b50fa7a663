import type { FieldViolation } from '../errors/api-error.js';
import { paramValues, type RawQuery } from './query-params.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

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
  return n;
}

/** page_size (0 or absent → 50, above 200 → 200), skip, page_token, order_by; every bad one named. */
export function parsePageParams(query: RawQuery): { ok: true; params: PageParams } | { ok: false; violations: FieldViolation[] } {
  const size = integer(query, 'page_size');
  const skip = integer(query, 'skip');
  const violations = [size, skip].filter((v): v is FieldViolation => typeof v === 'object');
  if (violations.length > 0) return { ok: false, violations };
  const pageSize = size === undefined || size === 0 ? DEFAULT_PAGE_SIZE : Math.min(size as number, MAX_PAGE_SIZE);
  return {
    ok: true,
    params: {
      pageSize,
      skip: (skip as number | undefined) ?? 0,
      pageToken: paramValues(query, 'page_token').at(-1) ?? '',
      orderBy: paramValues(query, 'order_by').at(-1),
    },
  };
}
