import type { Redis } from 'ioredis';
import type { Claim, IdempotencyStore } from './idempotency-store.js';
import { onRedis } from './state-store-error.js';

// one round trip, atomic: claim if free, else say what holds the key
const CLAIM = `
local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], cjson.encode({r = ARGV[1]}), 'PX', ARGV[2])
  return {'owner'}
end
local e = cjson.decode(v)
if e.r ~= ARGV[1] then return {'mismatch'} end
if e.a then return {'done', e.a} end
return {'busy'}`;

/** Idempotency records on Redis, shared by the replicas: a claim is one atomic script; Redis failing is STATE_STORE_UNAVAILABLE. */
export class RedisIdempotency implements IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'v2proxy:idem:',
  ) {}

  async claim(key: string, request: string, pendingMs: number): Promise<Claim> {
    const [state, answer] = (await onRedis(() => this.redis.eval(CLAIM, 1, this.prefix + key, request, pendingMs))) as [string, string | undefined];
    if (state === 'done') return { state, answer: answer ?? '' };
    return { state: state as 'owner' | 'busy' | 'mismatch' };
  }

  async complete(key: string, request: string, answer: string, ttlMs: number): Promise<void> {
    await onRedis(() => this.redis.set(this.prefix + key, JSON.stringify({ r: request, a: answer }), 'PX', ttlMs));
  }

  async release(key: string): Promise<void> {
    await onRedis(() => this.redis.del(this.prefix + key));
  }

  async close(): Promise<void> {}
}
