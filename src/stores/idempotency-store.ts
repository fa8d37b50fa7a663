/** What a claim on an idempotency key found. */
export type Claim =
  /** no one had it: run the request, then `complete` or `release` with the same owner */
  | { state: 'owner' }
  /** the first request finished: its answer, and the fingerprint of the token it was made with */
  | { state: 'done'; answer: string; by: string | undefined }
  /** the first request is still running */
  | { state: 'busy' }
  /** the key was used with another request */
  | { state: 'mismatch' };

/**
 * Idempotency records: a key claimed for one request (by its hash) by one owner (a random id of the
 * claiming request), then its answer, for a while. Only the owner completes or releases its claim:
 * one that lapsed and was claimed again by another request is that one's.
 */
export interface IdempotencyStore {
  /** claims `key` for the request hashed `request`; an unfinished claim lapses after `pendingMs` (its owner died) */
  claim(key: string, request: string, owner: string, pendingMs: number): Promise<Claim>;
  /** the owner's answer (made with the token fingerprinted `by`), kept `ttlMs`; false when the claim is no longer the owner's */
  complete(key: string, owner: string, record: { request: string; answer: string; by: string }, ttlMs: number): Promise<boolean>;
  /** the owner failed: the next request with the key runs again (nothing happens when the claim is no longer the owner's) */
  release(key: string, owner: string): Promise<void>;
  close(): Promise<void>;
}
