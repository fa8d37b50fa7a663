import { timingSafeEqual } from 'node:crypto';
import type { Caller } from './access.js';
import { type ApiTokens, looksLikeJwt } from './api-tokens.js';
import { unauthenticated } from './grpc-status.js';
import type { Store } from './store.js';

export function bearerOf(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Resolves `Authorization: Bearer …` to a caller: the dev token, a seed-file static token, or an STS-minted JWT. */
export async function authenticate(header: string | undefined, opts: { devToken: string; store: Store; tokens: ApiTokens; audience: string }): Promise<Caller> {
  const token = bearerOf(header);
  if (token === undefined) throw unauthenticated('missing bearer token');
  if (sameSecret(token, opts.devToken)) return { kind: 'superuser' };
  const staticIdentity = opts.store.tokens.get(token);
  const uid = staticIdentity ?? (looksLikeJwt(token) ? await opts.tokens.verify(token, opts.audience) : undefined);
  if (uid === undefined || !opts.store.identities.has(uid)) throw unauthenticated('invalid bearer token');
  return { kind: 'identity', uid };
}
