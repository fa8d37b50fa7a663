/** the side of the rollout that made a record */
export type RecordSide = 'translate' | 'native';

/** What a claim on an idempotency key found. */
export type Claim =
  /** no one had it: run the request, then `complete` or `release` with the same owner */
  | { state: 'owner' }
  /** the first request finished: its answer, the fingerprint of the token it was made with, and the side that made it */
  | { state: 'done'; answer: string; by: string | undefined; side?: RecordSide | undefined }
  /** the first request is still running */
  | { state: 'busy' }
  /** the key was used with another request */
  | { state: 'mismatch' };

/** The first request's answer, as a retry is given it. */
export interface IdempotencyRecord {
  /** the request's hash */
  request: string;
  answer: string;
  /** the fingerprint of the token it was made with */
  by: string;
  /** the side that made it (a record without one was made by the translation) */
  side?: RecordSide;
}

/**
 * Idempotency records: a key claimed for one request (by its hash) by one owner (a random id of the
 * claiming request), then its answer, for a while. A claim is a lease: it lapses unless its owner
 * renews it (an owner that died, or a claim that landed after its request gave up, holds the key no
 * longer than that). Only the owner completes or releases its claim: one that lapsed and was
 * claimed again by another request is that one's.
 */
export interface IdempotencyStore {
  /** how long a claim lasts unless renewed, ms */
  readonly leaseMs: number;
  /**
   * Claims `key` for the request hashed `request`. A claim whose answer never came (Redis stalled or
   * dropped it) is released behind it, so a late claim frees the key as soon as it lands.
   */
  claim(key: string, request: string, owner: string, leaseMs: number): Promise<Claim>;
  /** the owner's claim lasts `leaseMs` more (nothing happens when it is no longer the owner's) */
  renew(key: string, owner: string, leaseMs: number): Promise<void>;
  /**
   * The owner's answer, kept `ttlMs`; also when its claim lapsed unclaimed (the create happened: its
   * answer is the key's). False when another request holds the key now.
   */
  complete(key: string, owner: string, record: IdempotencyRecord, ttlMs: number): Promise<boolean>;
  /** the owner failed: the next request with the key runs again (nothing happens when the claim is no longer the owner's) */
  release(key: string, owner: string): Promise<void>;
  close(): Promise<void>;
}
