import type { Redis } from 'ioredis';
import type { Lease } from './fleet-counters.js';
import { onRedis } from './state-store-error.js';

// taken when free, renewed by its holder, never taken from a live holder
const HOLD = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

/** A lease on Redis: one key naming its holder, expiring unless renewed. */
export class RedisLease implements Lease {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  async hold(holder: string, ttlMs: number): Promise<boolean> {
    return (await onRedis(() => this.redis.eval(HOLD, 1, this.key, holder, String(ttlMs)))) === 1;
  }
}
