import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export const TOKEN_LIFETIME_MS = 3 * 24 * 60 * 60 * 1000;

/** What a page token remembers: what it is bound to, and where the next page starts (a keyset). */
export interface PagePosition {
  /** resource, filters, order_by and caller, hashed together */
  binding: string;
  /** sort-key values of the last item served, then its uid */
  after: unknown[];
  issuedAt: number;
}

export type OpenResult = { ok: true; position: PagePosition } | { ok: false; reason: 'malformed' | 'foreign' } | { ok: true; expired: true };

const VERSION = 1;

// Fresh random IVs, drawn from the CSPRNG a block at a time: one syscall per 512 tokens, not per token.
const IV_BYTES = 12;
let ivPool = Buffer.alloc(0);
function nextIv(): Buffer {
  if (ivPool.length < IV_BYTES) ivPool = randomBytes(IV_BYTES * 512);
  const iv = ivPool.subarray(0, IV_BYTES);
  ivPool = ivPool.subarray(IV_BYTES);
  return iv;
}

/**
 * Seals page positions with AES-256-GCM under a key derived from PAGE_TOKEN_SECRET, so tokens are
 * opaque, URL-safe, and cannot be forged or altered; opening never throws.
 */
type Sealed = { b: string; a: unknown[]; t: number };

export class PageTokenCodec {
  private readonly key: Buffer;
  // the last token opened: routing a continued list asks whether it was issued here, then the list
  // opens it again; the second time costs no decryption
  private last: { token: string; sealed: Sealed | undefined } | undefined;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`v2proxy page tokens\0${secret}`).digest();
  }

  static bindingOf(parts: readonly string[]): string {
    return createHash('sha256').update(parts.join('\0')).digest('base64url').slice(0, 22);
  }

  seal(position: PagePosition): string {
    const iv = nextIv();
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const plain = Buffer.from(JSON.stringify({ v: VERSION, b: position.binding, a: position.after, t: position.issuedAt }));
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** Whether this codec sealed the token (whatever query it was bound to): a proxy token, not another backend's. */
  issued(token: string): boolean {
    return this.decrypt(token) !== undefined;
  }

  /** The token's sealed content, or undefined when it was not sealed by this codec. */
  private decrypt(token: string): Sealed | undefined {
    if (this.last?.token === token) return this.last.sealed;
    let parsed: { v?: unknown; b?: unknown; a?: unknown; t?: unknown } | undefined;
    if (/^[\w-]{40,8192}$/.test(token)) {
      const raw = Buffer.from(token, 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        parsed = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'));
      } catch {
        parsed = undefined;
      }
    }
    const valid = parsed !== undefined && parsed.v === VERSION && typeof parsed.b === 'string' && Array.isArray(parsed.a) && typeof parsed.t === 'number';
    const sealed = valid ? (parsed as Sealed) : undefined;
    this.last = { token, sealed };
    return sealed;
  }

  /** Opens a token for `binding`: expired ones say so (the caller restarts), others are malformed or foreign. */
  open(token: string, binding: string, now: number): OpenResult {
    const parsed = this.decrypt(token);
    if (parsed === undefined) return { ok: false, reason: 'malformed' };
    if (parsed.b !== binding) return { ok: false, reason: 'foreign' };
    if (now - parsed.t > TOKEN_LIFETIME_MS) return { ok: true, expired: true };
    return { ok: true, position: { binding: parsed.b, after: parsed.a, issuedAt: parsed.t } };
  }
}
