/** What a claim on an idempotency key found. */
export type Claim =
  /** no one had it: run the request, then `complete` or `release` */
  | { state: 'owner' }
  /** the first request finished: its answer */
  | { state: 'done'; answer: string }
  /** the first request is still running */
  | { state: 'busy' }
  /** the key was used with another request */
  | { state: 'mismatch' };

/** Idempotency records: a key claimed for one request (by its hash), then its answer, for a while. */
export interface IdempotencyStore {
  /** claims `key` for the request hashed `request`; an unfinished claim lapses after `pendingMs` (its owner died) */
  claim(key: string, request: string, pendingMs: number): Promise<Claim>;
  /** the owner's answer, kept `ttlMs` */
  complete(key: string, request: string, answer: string, ttlMs: number): Promise<void>;
  /** the owner failed: the next request with the key runs again */
  release(key: string): Promise<void>;
  close(): Promise<void>;
}
