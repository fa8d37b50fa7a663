import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

const LIFETIME_SECONDS = 3600;

/** The API tokens the emulator's STS mints and its API accepts: HS256 JWTs under a per-process key. */
export class ApiTokens {
  private readonly key = new Uint8Array(randomBytes(32));

  constructor(private readonly issuer: () => string) {}

  async mint(identity: string, audiences: string[], nowMs: number): Promise<{ token: string; expiry: number }> {
    const iat = Math.floor(nowMs / 1000);
    const exp = iat + LIFETIME_SECONDS;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(this.issuer())
      .setSubject(identity)
      .setAudience(audiences)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiry: exp * 1000 };
  }

  /** The identity uid a token stands for, or undefined when it is not a valid token for `audience`. */
  async verify(token: string, audience: string): Promise<string | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: this.issuer(),
        audience,
        algorithms: ['HS256'],
      });
      return payload.sub;
    } catch {
      return undefined;
    }
  }
}

export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}
