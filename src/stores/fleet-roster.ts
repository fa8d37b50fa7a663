import type { Redis } from 'ioredis';
import { onRedis } from './state-store-error.js';

/** One replica as the fleet sees it. */
export interface RosterEntry {
  id: string;
  /** where it listens (host:port as it sees itself) */
  address: string;
  /** the control state it has applied (epoch and version), the digest of its own rollout file, and of the configuration it runs */
  epoch: string;
  version: number;
  digest: string;
  appliedDigest: string;
  /** when it last checked in, and when it started (ms since epoch) */
  checkedAt: number;
  startedAt: number;
}

/** The replicas of the fleet: each checks in every second or so; one gone quiet for a minute is forgotten. */
export class FleetRoster {
  constructor(
    private readonly redis: Redis,
    private readonly key = 'v2proxy:fleet',
  ) {}

  /** Checks in (without waiting: a Redis that is away misses one check-in). */
  checkIn(entry: RosterEntry): void {
    this.redis.hset(this.key, entry.id, JSON.stringify(entry)).catch(() => undefined);
  }

  leave(id: string): Promise<unknown> {
    return this.redis.hdel(this.key, id).catch(() => undefined);
  }

  /** Every replica that checked in within `forgetMs` (older ones are removed). */
  async list(now: number, forgetMs: number): Promise<RosterEntry[]> {
    const all = await onRedis(() => this.redis.hgetall(this.key));
    const live: RosterEntry[] = [];
    for (const [id, text] of Object.entries(all)) {
      const entry = JSON.parse(text) as RosterEntry;
      if (now - entry.checkedAt > forgetMs) void this.redis.hdel(this.key, id).catch(() => undefined);
      else live.push(entry);
    }
    return live.sort((a, b) => a.id.localeCompare(b.id));
  }
}
