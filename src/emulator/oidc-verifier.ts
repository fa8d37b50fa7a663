import { type JWTPayload, type JWTVerifyGetKey, createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { unauthenticated } from './grpc-status.js';

const DISCOVERY_TIMEOUT_MS = 5000;

/**
 * Verifies third-party OIDC tokens for the STS: the issuer must be trusted, its keys are found through
 * `<issuer>/.well-known/openid-configuration`, and the token must be signed by them and unexpired.
 */
export class OidcVerifier {
  private readonly trusted: ReadonlySet<string>;
  private readonly keySets = new Map<string, Promise<JWTVerifyGetKey>>();

  constructor(trustedIssuers: readonly string[]) {
    this.trusted = new Set(trustedIssuers.map(normalise));
  }

  async verify(token: string): Promise<JWTPayload & { iss: string; sub: string }> {
    let issuer: string | undefined;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw unauthenticated('malformed identity token');
    }
    if (issuer === undefined || !this.trusted.has(normalise(issuer))) {
      throw unauthenticated(`identity token issuer ${JSON.stringify(issuer ?? '')} is not trusted`);
    }
    try {
      const { payload } = await jwtVerify(token, await this.keySet(issuer), { issuer });
      if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('no subject');
      return payload as JWTPayload & { iss: string; sub: string };
    } catch (err) {
      throw unauthenticated(`identity token rejected: ${(err as Error).message}`);
    }
  }

  private keySet(issuer: string): Promise<JWTVerifyGetKey> {
    const key = normalise(issuer);
    let set = this.keySets.get(key);
    if (!set) {
      set = discover(key);
      this.keySets.set(key, set);
      // A failed discovery is tried again next time; a good key set is kept (jose refreshes it on unknown kids).
      set.catch(() => this.keySets.delete(key));
    }
    return set;
  }
}

function normalise(issuer: string): string {
  return issuer.replace(/\/+$/, '');
}

async function discover(issuer: string): Promise<JWTVerifyGetKey> {
  const res = await fetch(`${issuer}/.well-known/openid-configuration`, {
    signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`discovery answered ${res.status}`);
  const doc = (await res.json()) as { jwks_uri?: unknown };
  if (typeof doc.jwks_uri !== 'string') throw new Error('discovery document has no jwks_uri');
  return createRemoteJWKSet(new URL(doc.jwks_uri), { timeoutDuration: DISCOVERY_TIMEOUT_MS });
}
