import { createHash, timingSafeEqual } from 'node:crypto';

/** The header that carries the operator's secret with an override (`x-v2proxy-backend`). */
export const OVERRIDE_SECRET_HEADER = 'x-v2proxy-override-secret';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The override secret (ROLLOUT_OVERRIDE_SECRET), kept as its digest and compared in constant time. */
export class OverrideSecret {
  private readonly expected: Buffer;

  constructor(secret: string) {
    this.expected = digest(secret);
  }

  /** Whether a request's header holds the secret (one value; a repeated header never does). */
  matches(given: string | string[] | undefined): boolean {
    return typeof given === 'string' && given !== '' && timingSafeEqual(digest(given), this.expected);
  }
}
