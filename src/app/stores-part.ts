import type { FastifyBaseLogger } from 'fastify';
import type { ResolvedSettings } from '../config/settings-schema.js';
import type { TimesStore } from '../meta/meta-store.js';
import { openMetaStore } from '../meta/open-meta-store.js';
import { CONTROL_TOPIC } from '../rollout/start-rollout.js';
import { FleetDiffReport } from '../shadow/fleet-diff-report.js';
import { FleetChannel } from '../stores/fleet-channel.js';
import { FleetRoster } from '../stores/fleet-roster.js';
import type { IdempotencyStore } from '../stores/idempotency-store.js';
import { MemoryGuardCounters } from '../stores/memory-guard-counters.js';
import { MemoryIdempotency } from '../stores/memory-idempotency.js';
import { openRedis, redisAnswers, redisConnected } from '../stores/open-redis.js';
import { RedisAnalysisCounters } from '../stores/redis-analysis-counters.js';
import { RedisControlStore } from '../stores/redis-control-store.js';
import { RedisGuardCounters } from '../stores/redis-guard-counters.js';
import { RedisIdempotency } from '../stores/redis-idempotency.js';
import { RedisLease } from '../stores/redis-lease.js';
import { RedisMetaStore } from '../stores/redis-meta-store.js';
import { RedisWriteLock } from '../stores/redis-write-lock.js';
import { memoryRolloutStores, type RolloutStores } from '../stores/rollout-stores.js';
import { TrafficCounters } from '../stores/traffic-counters.js';
import type { StateStoreCheck } from '../server/health-routes.js';
import { KeyedLock } from '../update/keyed-lock.js';
import type { WriteLock } from '../update/write-lock.js';
import type { Part } from './part-list.js';

/**
 * Every store of the proxy. Whether they are this replica's memory or the fleet's Redis is decided
 * here, once: what uses them sees only what they do, and what exists only in a fleet (its news, its
 * roster, its diff report) is absent for a replica alone.
 */
export interface Stores extends Part {
  meta: TimesStore;
  locks: WriteLock;
  idempotency: IdempotencyStore;
  rollout: RolloutStores;
  /** a fleet's news: a write through any replica ends every replica's list snapshots */
  news: FleetChannel | undefined;
  roster: FleetRoster | undefined;
  diffReport: FleetDiffReport | undefined;
  /** whether the fleet's store answers (readiness) */
  answers: StateStoreCheck | undefined;
}

export interface StoreOptions {
  now(): number;
  /** a side store of synthesized times given by the caller (not closed here) */
  meta?: TimesStore | undefined;
  /** this replica's name (the analysis lease's holder) */
  holder: string;
  log: FastifyBaseLogger;
}

/** META_STORE as memory or a file journal of this replica's own (none: the caller gave one, or it is Redis's). */
function ownMeta(settings: ResolvedSettings, opts: StoreOptions): Promise<TimesStore> | undefined {
  if (opts.meta || settings.metaStore === 'redis') return undefined;
  return openMetaStore(settings.metaStore, (message, err) => opts.log.warn({ err }, message));
}

/** The stores of a replica alone (no REDIS_URL). */
async function memoryStores(settings: ResolvedSettings, opts: StoreOptions): Promise<Stores> {
  const own = await ownMeta(settings, opts);
  return {
    name: 'stores',
    meta: opts.meta ?? (own as TimesStore),
    locks: new KeyedLock(),
    idempotency: new MemoryIdempotency(100_000, opts.now),
    rollout: memoryRolloutStores(opts.now),
    news: undefined,
    roster: undefined,
    diffReport: undefined,
    answers: undefined,
    close: async () => own?.close(),
  };
}

/**
 * The stores replicas share (REDIS_URL): write locks, idempotency records, the rollout's state and
 * counts, and META_STORE=redis. Connected in the background: a replica starts (not ready) while
 * Redis is away, and recovers by itself; one that is up is connected before the first request.
 */
async function redisStores(url: string, settings: ResolvedSettings, opts: StoreOptions): Promise<Stores> {
  const redis = openRedis(url, settings.redisTimeoutMs, {
    down: (message) => opts.log.error(`${message}: requests that need it answer 503 (retryable) and /readyz 503 until it answers again`),
    up: () => opts.log.warn('Redis answers again'),
  });
  await redisConnected(redis, Math.max(1_000, settings.redisTimeoutMs));
  let own: TimesStore | undefined;
  try {
    own = await ownMeta(settings, opts);
  } catch (err) {
    // the start fails: the connection opened here is closed here
    redis.disconnect();
    throw err;
  }
  const news = new FleetChannel(redis);
  return {
    name: 'stores',
    meta: opts.meta ?? own ?? new RedisMetaStore(redis, { waitMs: settings.redisTimeoutMs }),
    locks: new RedisWriteLock(redis, { leaseMs: settings.redisLeaseMs, waitMs: 30_000 }),
    idempotency: new RedisIdempotency(redis, settings.redisLeaseMs),
    rollout: {
      control: new RedisControlStore(redis, CONTROL_TOPIC),
      guard: new RedisGuardCounters(redis),
      alone: new MemoryGuardCounters(),
      analysis: new RedisAnalysisCounters(redis),
      traffic: new TrafficCounters(new RedisAnalysisCounters(redis, 'v2proxy:traffic:')),
      lease: new RedisLease(redis, 'v2proxy:analysis-lease'),
      fleet: { news, holder: opts.holder },
    },
    news,
    roster: new FleetRoster(redis),
    diffReport: new FleetDiffReport(redis),
    answers: () => redisAnswers(redis),
    close: async () => {
      await own?.close();
      news.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** The stores: the fleet's with REDIS_URL, else this replica's memory (META_STORE may keep synthesized times in a file). */
export function openStores(settings: ResolvedSettings, opts: StoreOptions): Promise<Stores> {
  return settings.redisUrl ? redisStores(settings.redisUrl, settings, opts) : memoryStores(settings, opts);
}
