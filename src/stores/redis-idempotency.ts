import type { Redis } from 'ioredis';
import type { Claim, IdempotencyStore } from './idempotency-store.js';
import { onRedis } from './state-store-error.js';

// one round trip, atomic: claim if free (with its owner), else say what holds the key
const CLAIM = `
local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], cjson.encode({r = ARGV[1], o = ARGV[2]}), 'PX', ARGV[3])
  return {'owner'}
end
local e = cjson.decode(v)
if e.r ~= ARGV[1] then return {'mismatch'} end
if e.a then return {'done', e.a, e.b or ''} end
return {'busy'}`;

// what completing and releasing both start with: a claim that lapsed and is another's (or gone,
// or answered already) is left alone; ARGV[1] is the owner
const OWNED = `
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local e = cjson.decode(v)
if e.o ~= ARGV[1] or e.a then return 0 end`;

// the owner's claim becomes its answer
const COMPLETE = `${OWNED}
redis.call('SET', KEYS[1], cjson.encode({r = ARGV[2], a = ARGV[3], b = ARGV[4]}), 'PX', ARGV[5])
return 1`;

// the owner's claim is dropped
const RELEASE = `${OWNED}
return redis.call('DEL', KEYS[1])`;

/** Idempotency records on Redis, shared by the replicas: each step is one atomic script; Redis failing is STATE_STORE_UNAVAILABLE. */
export class RedisIdempotency implements IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'v2proxy:idem:',
  ) {}

  async claim(key: string, request: string, owner: string, pendingMs: number): Promise<Claim> {
    const [state, answer, by] = (await onRedis(() => this.redis.eval(CLAIM, 1, this.prefix + key, request, owner, pendingMs))) as [
      string,
      string | undefined,
      string | undefined,
    ];
    // (a record from before owners were kept has no fingerprint: '' reads as unknown)
    if (state === 'done') return { state, answer: answer ?? '', by: by === '' ? undefined : by };
    return { state: state as 'owner' | 'busy' | 'mismatch' };
  }

  async complete(key: string, owner: string, record: { request: string; answer: string; by: string }, ttlMs: number): Promise<boolean> {
    const done = await onRedis(() => this.redis.eval(COMPLETE, 1, this.prefix + key, owner, record.request, record.answer, record.by, ttlMs));
    return done === 1;
  }

  async release(key: string, owner: string): Promise<void> {
    await onRedis(() => this.redis.eval(RELEASE, 1, this.prefix + key, owner));
  }

  async close(): Promise<void> {}
}
