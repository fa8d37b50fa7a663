import { createHash } from 'node:crypto';

// a bearer in any case of its scheme, with the spaces HTTP allows around the token
const BEARER = /^bearer[ \t]+([^\s]+)[ \t]*$/i;

/**
 * The Authorization value as every part of the proxy reads it, whichever door it came by: a bearer
 * is `Bearer <token>` (the scheme's case and spacing are the client's spelling, not another
 * caller), and over gRPC a bare token (the platform SDK's form) is a bearer too. Anything else is
 * passed on as sent, for the backend to judge.
 */
export function callerAuthorization(value: string | undefined, bareIsBearer = false): string | undefined {
  if (value === undefined || value === '') return value;
  // the common spelling is its own normal form: no new string
  if (value.startsWith('Bearer ') && value.indexOf(' ', 7) < 0 && value.length > 7) return value;
  const token = BEARER.exec(value)?.[1];
  if (token !== undefined) return `Bearer ${token}`;
  if (bareIsBearer && !/\s/.test(value)) return `Bearer ${value}`;
  return value;
}

/** The token of a (normalised) bearer Authorization, or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
}

/**
 * The claims of a JWT, read without verifying it: only to group a caller's requests (a bucket, an
 * idempotency scope); the backend verifies the token, and nothing a claim selects is served without
 * it doing so. Undefined for a token that is not a JWT.
 */
export function jwtClaims(token: string): { iss?: string; sub?: string } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || (parts[1] ?? '').length > 8192) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8')) as unknown;
    if (typeof payload !== 'object' || payload === null) return undefined;
    const { iss, sub } = payload as { iss?: unknown; sub?: unknown };
    return { ...(typeof iss === 'string' && iss !== '' ? { iss } : {}), ...(typeof sub === 'string' && sub !== '' ? { sub } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * Who a caller is across its tokens: the issuer and subject of a JWT (a refreshed token is the
 * same caller), else the token itself. Hashed: it keys records, it never names anyone.
 */
export function callerIdentity(authorization: string | undefined): string {
  const token = bearerToken(authorization);
  const claims = token === undefined ? undefined : jwtClaims(token);
  const who = claims?.sub !== undefined ? `jwt\0${claims.iss ?? ''}\0${claims.sub}` : `token\0${authorization ?? ''}`;
  return createHash('sha256').update(who).digest('base64url').slice(0, 22);
}
