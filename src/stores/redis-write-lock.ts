import { randomBytes } from 'node:crypto';
import { apiError } from '../errors/error-registry.js';
import type { Redis } from 'ioredis';
import { abortReason } from '../upstream/abort-reason.js';
import type { WriteLock } from '../update/write-lock.js';
import { onRedis, takenOrUndone } from './state-store-error.js';
import type { LifeSignal } from '../upstream/request-life.js';

// release and fence only if the lock still holds our token (compare-and-delete / compare-and-extend)
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;

export interface RedisLockOptions {
  /** how long a holder owns the lock without renewing it, ms (a crashed holder blocks no longer) */
  leaseMs: number;
  /** how long to wait for the lock before giving up with ABORTED, ms */
  waitMs: number;
  prefix?: string;
}

/**
 * The per-resource write lock across replicas: `SET NX PX` with a random token and a lease that the
 * holder renews while it works; a take whose answer never came is released right behind it
 * (`takenOrUndone`). Before writing, `fence()` checks (and extends) that the token still
 * holds the lock: a holder that lost it (stalled past its lease, Redis failed over) does not write
 * and answers ABORTED, so the client may retry. Waiters poll with jittered backoff, and stop when
 * their request does (`signal`). Redis failing before the write is STATE_STORE_UNAVAILABLE: nothing
 * was written.
 */
export class RedisWriteLock implements WriteLock {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly opts: RedisLockOptions,
  ) {
    this.prefix = opts.prefix ?? 'v2proxy:lock:';
  }

  async run<T>(key: string, work: (fence: () => Promise<void>) => Promise<T>, signal?: LifeSignal): Promise<T> {
    const name = this.prefix + key;
    const token = randomBytes(16).toString('base64url');
    const until = Date.now() + this.opts.waitMs;
    let pause = 2;
    const take = () =>
      takenOrUndone(
        () => this.redis.set(name, token, 'PX', this.opts.leaseMs, 'NX'),
        () => this.redis.eval(RELEASE, 1, name, token),
      );
    while ((await take()) !== 'OK') {
      if (Date.now() >= until) throw apiError('WRITE_BUSY', { resource: key });
      if (signal?.aborted) throw abortReason(signal);
      await new Promise((resolve) => setTimeout(resolve, pause * (0.5 + Math.random())));
      pause = Math.min(pause * 2, 50);
    }
    // renew at a third of the lease while the work runs
    const renew = setInterval(() => void this.redis.eval(EXTEND, 1, name, token, this.opts.leaseMs).catch(() => undefined), this.opts.leaseMs / 3);
    renew.unref();
    const fence = async () => {
      if ((await onRedis(() => this.redis.eval(EXTEND, 1, name, token, this.opts.leaseMs))) !== 1) {
        throw apiError('WRITE_LOCK_LOST', { resource: key });
      }
    };
    try {
      return await work(fence);
    } finally {
      clearInterval(renew);
      await this.redis.eval(RELEASE, 1, name, token).catch(() => undefined);
    }
  }
}
