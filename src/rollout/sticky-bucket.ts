import { hash } from 'node:crypto';
import { bearerToken, jwtClaims } from '../auth/caller-identity.js';

export const BUCKETS = 10_000;

/**
 * A caller's bucket (0 to 9999) on one route: a salted hash of its sticky key, so the same caller
 * always lands on the same side, raising a percentage only adds callers, and each route buckets
 * independently of the others.
 */
export function bucketOf(salt: string, route: string, stickyKey: string): number {
  // one-shot: a hash object per request costs several times as much (the same first 32 bits)
  return Number.parseInt(hash('sha256', `${salt}\0${route}\0${stickyKey}`, 'hex').slice(0, 8), 16) % BUCKETS;
}

export function inNativeShare(bucket: number, percent: number): boolean {
  return bucket < Math.round(percent * (BUCKETS / 100));
}

/** The `sub` claim of a JWT, read without verifying it (only to bucket; the backend verifies the token). */
export function jwtSubject(token: string): string | undefined {
  return jwtClaims(token)?.sub;
}

/** What a caller is bucketed by: `subject` (a JWT's sub, else the token), `token`, or `header:<name>`. */
export function stickyKeyOf(stickyBy: string, headers: Record<string, string | string[] | undefined>): string {
  const token = bearerToken(typeof headers.authorization === 'string' ? headers.authorization : undefined) ?? '';
  if (stickyBy === 'token') return `t:${token}`;
  if (stickyBy.startsWith('header:')) {
    const value = headers[stickyBy.slice('header:'.length).toLowerCase()];
    return `h:${Array.isArray(value) ? value.join(',') : (value ?? '')}`;
  }
  const sub = jwtSubject(token);
  return sub === undefined ? `t:${token}` : `s:${sub}`;
}
