import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { ResolvedSettings } from '../config/settings-schema.js';
import { AroundRequest, counted, fed, logged, recorded, traced } from '../exchange/around-request.js';
import { ExchangePipeline } from '../exchange/exchange-pipeline.js';
import { LookupCache } from '../hydrate/lookup-cache.js';
import { PageTokenCodec } from '../list/page-token.js';
import { SnapshotCache } from '../list/snapshot-cache.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import type { AppServices } from '../operations/operation-context.js';
import type { Rollout } from '../rollout/start-rollout.js';
import { OneLineRequestLog } from '../server/one-line-request-log.js';
import type { Lifecycle } from '../server/lifecycle.js';
import type { Tracing } from '../telemetry/tracing.js';
import type { Backends } from './backends-part.js';
import type { Part } from './part-list.js';
import type { Shadowing } from './shadowing-part.js';
import type { Stores } from './stores-part.js';

// the topic of writes: its messages name a resource whose list snapshots every replica drops
const LISTS_TOPIC = 'v2proxy:lists';

export interface Pipeline extends Part {
  pipeline: ExchangePipeline;
  services: AppServices;
  /** what is written around every request, whichever door it came by */
  around: AroundRequest;
}

export interface PipelineParts {
  resources: readonly CompiledResource[];
  stores: Stores;
  backends: Backends;
  rollout: Rollout;
  shadowing: Shadowing;
  tracing: Tracing | undefined;
  metrics: ProxyMetrics;
  lifecycle: Lifecycle;
  logs: DestinationStream;
  now(): number;
  random: (() => number) | undefined;
}

/** The lists' snapshots and page tokens; with a fleet, a write through any replica ends every replica's snapshots of that resource. */
function listsOf(settings: ResolvedSettings, app: FastifyInstance, stores: Stores): AppServices['lists'] {
  if (!settings.pageTokenSecret)
    app.log.warn('PAGE_TOKEN_SECRET is not set: page tokens are sealed with a random key and stop working when this process restarts');
  const lists: AppServices['lists'] = {
    cache: new SnapshotCache({ ttlMs: settings.listCacheTtlMs, maxBytes: settings.listCacheMaxBytes }),
    tokens: new PageTokenCodec(settings.pageTokenSecret ?? randomBytes(32).toString('base64url')),
    reauthMs: settings.listReauthMs,
  };
  const news = stores.news;
  if (news) {
    news.on(LISTS_TOPIC, (resource) => lists.cache.invalidateResource(resource));
    // what was published while the subscription was away is lost: nothing kept may be trusted
    news.onReconnect(() => lists.cache.clear());
    lists.written = (resource) => news.publish(LISTS_TOPIC, resource);
  }
  return lists;
}

/**
 * The one pipeline both front doors hand their requests to (REST, and gRPC with gRPC-Web and
 * Connect), the services its operations use, and what is written around every request (outermost
 * first: the log line is the last thing). Closed once the doors are: its snapshots are dropped.
 */
export function openPipeline(settings: ResolvedSettings, app: FastifyInstance, p: PipelineParts): Pipeline {
  const lists = listsOf(settings, app, p.stores);
  const services: AppServices = {
    lists,
    locks: p.stores.locks,
    idempotency: p.stores.idempotency,
    resources: new Map(p.resources.map((r) => [r.mapping.resource, r])),
    lookups: new LookupCache({ ttlMs: settings.lookupCacheTtlMs, maxEntries: 100_000 }),
    meta: p.stores.meta,
    now: p.now,
    warn: (message, err) => app.log.warn({ err }, message),
  };
  const pipeline = new ExchangePipeline({
    tracing: p.tracing,
    v1: p.backends.v1Client,
    services,
    rollout: p.rollout.traffic,
    native: p.backends.native !== undefined,
    issuedHere: (token) => lists.tokens.issued(token),
    shadow: p.shadowing.shadow,
    verifier: p.shadowing.verifier,
    nativeReads: p.backends.native?.rest,
    shutdownSignal: p.lifecycle.shutdownSignal,
    gate: p.shadowing.gate,
    ...(p.random ? { random: p.random } : {}),
  });
  const requestLog = new OneLineRequestLog(settings.logLevel, p.logs, app.log);
  const record = p.shadowing.record;
  const around = new AroundRequest([
    logged(requestLog.write),
    traced,
    counted(p.metrics),
    fed(p.rollout.traffic),
    ...(record ? [recorded(record, p.now)] : []),
  ]);
  return { name: 'pipeline', pipeline, services, around, close: () => lists.cache.clear() };
}
