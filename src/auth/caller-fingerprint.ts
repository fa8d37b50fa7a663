import { createHash } from 'node:crypto';

/** A caller's identity for cache keys and page-token binding: a hash of the bearer, never the bearer. */
export function callerFingerprint(authorization: string | undefined): string {
  return createHash('sha256')
    .update(`caller\0${authorization ?? ''}`)
    .digest('base64url')
    .slice(0, 22);
}
