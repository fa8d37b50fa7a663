import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { apiError } from '../errors/error-registry.js';
import { createContextValues } from '@connectrpc/connect';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { ResolvedSettings } from '../config/settings-schema.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import { LookupCache } from '../hydrate/lookup-cache.js';
import { PageTokenCodec } from '../list/page-token.js';
import { SnapshotCache } from '../list/snapshot-cache.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import { loadMappings } from '../mapping/load-mappings.js';
import { RouteTable } from '../mapping/route-table.js';
import type { TimesStore } from '../meta/meta-store.js';
import { RedisMetaStore } from '../stores/redis-meta-store.js';
import { MemoryIdempotency } from '../stores/memory-idempotency.js';
import { openRedis, redisAnswers, redisConnected } from '../stores/open-redis.js';
import { RedisIdempotency } from '../stores/redis-idempotency.js';
import { RedisWriteLock } from '../stores/redis-write-lock.js';
import { openMetaStore } from '../meta/open-meta-store.js';
import type { AppServices } from '../operations/operation-context.js';
import { KeyedLock } from '../update/keyed-lock.js';
import { backendDispatcher } from '../upstream/backend-dispatcher.js';
import { V1Client } from '../upstream/v1-client.js';
import { v1Origin } from '../upstream/v1-origin.js';
import { V1Probe } from '../upstream/v1-probe.js';
import { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { RolloutController } from '../rollout/rollout-controller.js';
import { DiffBook, type RouteDelta, reportOf } from '../shadow/diff-book.js';
import { RecordFile } from '../shadow/record-file.js';
import { ShadowRunner } from '../shadow/shadow-runner.js';
import { NativeV2Client } from '../upstream/native-v2-client.js';
import { registerAdminRoutes } from './admin-routes.js';
import { clientErrorHandler } from './client-error.js';
import { registerHealthRoutes } from './health-routes.js';
import { drainLimits, dualProtocolServer, type RequestTaker, type StreamTaker } from './dual-protocol-server.js';
import { grpcStreamCalls } from './grpc-stream-calls.js';
import { reflectionRoutes } from './grpc-reflection.js';
import { GRPC_SERVICES, REQUEST_ID, grpcProcedures, grpcRoutes, grpcStatusOf } from './grpc-routes.js';
import { registerConnectRoutes } from './connect-routes.js';
import { Lifecycle } from './lifecycle.js';
import { connectionBoundWarning } from './open-file-limit.js';
import { registerJsonBody } from './json-body.js';
import { bufferedLogStream } from './buffered-log-stream.js';
import { lazyChildLogger } from './lazy-child-logger.js';
import { loggerOptions } from './logger-options.js';
import { noRoute } from './no-route.js';
import { OneLineRequestLog } from './one-line-request-log.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import { type ErrorReply, sendError } from './send-error.js';
import { toApiError } from '../errors/to-api-error.js';
import { registerFormParser, registerStsRoutes } from './sts-routes.js';
import { registerV1Passthrough, v1Reads } from './v1-passthrough.js';
import { registerV2Routes } from './v2-routes.js';
import { ExchangePipeline } from '../exchange/exchange-pipeline.js';
import { FleetChannel } from '../stores/fleet-channel.js';
import { RedisFleetState } from '../stores/redis-fleet-state.js';
import { RedisGuardCounters } from '../stores/redis-guard-counters.js';
import { FleetRoster } from '../stores/fleet-roster.js';
import { MemoryAnalysisCounters } from '../stores/memory-analysis-counters.js';
import { RedisAnalysisCounters } from '../stores/redis-analysis-counters.js';
import { RedisLease } from '../stores/redis-lease.js';
import { WebhookSender } from '../upstream/webhook-sender.js';
import { FleetDiffReport } from '../shadow/fleet-diff-report.js';
import { NativeGrpcClient } from '../upstream/native-grpc-client.js';

// the topic of writes: its messages name a resource whose list snapshots every replica drops
const LISTS_TOPIC = 'v2proxy:lists';
// the topic of the fleet state: its messages are the new version
const CONTROL_TOPIC = 'v2proxy:control';
// how often a replica reads the fleet state anyway (an announcement may be lost while disconnected)
const FLEET_POLL_MS = 500;
// how often a replica checks in to the fleet's roster, and when a silent one is forgotten
const ROSTER_CHECK_IN_MS = 1_000;
const ROSTER_FORGET_MS = 60_000;
// how often a replica sends what it booked to the fleet's diff report, and the topic of its reset
const DIFF_FLUSH_MS = 1_000;
const DIFF_RESET_TOPIC = 'v2proxy:diff-reset';

// a v1 answer may nest this deep: a record at the v2 limit inside a list envelope, and some room
const MAX_V1_ANSWER_DEPTH = 128;

export interface ProxyAppOptions {
  /** where log lines go (tests); default stdout */
  logStream?: DestinationStream;
  /** compiled mappings (default: read from mappings/ once, here) */
  resources?: readonly CompiledResource[];
  /** the clock of page tokens and synthesized times (tests) */
  now?: () => number;
  /** the side store of synthesized times (default: from META_STORE; a given one is not closed with the app) */
  meta?: TimesStore;
  /** follow the rollout file for changes and SIGHUP (default true) */
  watchRollout?: boolean;
  /** the dice of shadow and noise sampling (tests) */
  random?: () => number;
  /** the process's life: its drain and each request's signal (default: one of its own) */
  lifecycle?: Lifecycle;
  /** the rollout webhook's first retry wait (tests); default 1 s */
  webhookBackoffMs?: number;
}

/** Assembles the proxy: the v2 surface, token exchange, v1 passthrough, health, and one error shape. */
export async function buildProxyApp(settings: ResolvedSettings, opts: ProxyAppOptions = {}): Promise<FastifyInstance> {
  const buffered = opts.logStream ? undefined : bufferedLogStream();
  const logs = opts.logStream ?? (buffered as DestinationStream);
  const lifecycle = opts.lifecycle ?? new Lifecycle();
  // plain gRPC calls, served off their HTTP/2 streams once the procedures exist (below)
  let takeStream: StreamTaker | undefined;
  // v1 reads, passed on before fastify once the v1 backend exists (below)
  let takeRequest: RequestTaker | undefined;
  const requestLog = new OneLineRequestLog(settings.logLevel, logs);
  const app = Fastify({
    // REST and gRPC on one listener: HTTP/1.1 and h2c by the connection's first bytes, or TLS with ALPN;
    // silent, idle and surplus connections closed, HTTP/2 bounded, all of it drained on shutdown
    serverFactory: (handler) =>
      dualProtocolServer(
        handler as never,
        {
          headersTimeoutMs: settings.headersTimeoutMs,
          requestTimeoutMs: settings.requestTimeoutMs,
          idleTimeoutMs: settings.idleTimeoutMs,
          maxConnections: settings.maxConnections,
          maxConcurrentStreams: settings.http2MaxStreams,
          bodyLimit: settings.bodyLimit,
          tls: settings.tlsCertFile && settings.tlsKeyFile ? { certFile: settings.tlsCertFile, keyFile: settings.tlsKeyFile } : undefined,
          takeStream: (stream, headers) => takeStream?.(stream, headers) ?? false,
          takeRequest: (req, res) => takeRequest?.(req, res) ?? false,
        },
        lifecycle.connections,
      ) as never,
    // while closing, requests on kept-alive connections are served (and told Connection: close), not refused
    return503OnClosing: false,
    logger: loggerOptions(settings.logLevel, logs),
    genReqId: requestIdOf,
    logController: requestLog,
    childLoggerFactory: lazyChildLogger,
    requestIdHeader: false,
    bodyLimit: settings.bodyLimit,
    clientErrorHandler,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // A URL fastify cannot even decode still answers in the one error shape.
    // (its reply is typed with unresolved route generics, hence the structural cast)
    // (no hooks run for these, so the request id is set here)
    frameworkErrors: (err, req, reply) => {
      reply.header(REQUEST_ID_HEADER, req.id);
      sendError(reply as unknown as ErrorReply, apiError('MALFORMED_REQUEST', { reason: err.message }));
    },
  });
  // v2 bodies are JSON (or the STS form); plain text is refused rather than read as an empty body.
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);
  const resources = opts.resources ?? loadMappings();
  const v1 = v1Origin(settings.v1BaseUrl);
  const limits = { timeoutMs: settings.v1TimeoutMs, maxResponseBytes: settings.v1MaxResponseBytes, maxDepth: MAX_V1_ANSWER_DEPTH };
  const metrics = new ProxyMetrics(lifecycle.connections);
  // the progressive rollout's notices: sent off the request path, in order, retried
  const webhook = settings.rolloutWebhookUrl
    ? new WebhookSender({
        url: settings.rolloutWebhookUrl,
        timeoutMs: settings.rolloutWebhookTimeoutMs,
        backoffMs: opts.webhookBackoffMs ?? 1_000,
        attempts: 5,
        maxQueued: 1_000,
        outcome: (outcome) => metrics.webhook.inc({ outcome }),
        failed: (message) => app.log.error(message),
      })
    : undefined;
  // the rollout file first: a process never starts on one that is missing or invalid
  const rollout = new RolloutController({
    file: settings.rolloutFile,
    nativeBackend: settings.v2BaseUrl,
    now: opts.now ?? Date.now,
    known: new Map(resources.map((r) => [r.mapping.resource, r.mapping.v2.operations])),
    events: {
      info: (message) => app.log.info(message),
      error: (message) => app.log.error(message),
      rollback: (resource) => metrics.rollbacks.inc({ resource }),
      reload: (result) => metrics.reloads.inc({ result }),
      progress: (route, notice) => {
        metrics.progressChanges.inc({ resource: route.resource, to: notice.to.state });
        webhook?.send(notice);
      },
    },
  });
  lifecycle.connections.events = {
    refused: () => metrics.connectionsRefused.inc(),
    abusive: (remote) => app.log.warn(`HTTP/2: a client at ${remote} reset most of its streams; its connection was ended (GOAWAY ENHANCE_YOUR_CALM)`),
  };
  // each backend (v1, the token issuer, the native v2) with its own call deadline and attempt timeout
  const backend = (origin: string, name: string, timeouts: { timeoutMs: number; attemptTimeoutMs: number }, label: 'v1' | 'issuer' | 'v2') =>
    backendDispatcher(origin, {
      connections: 128,
      maxResponseBytes: settings.v1MaxResponseBytes,
      attemptTimeoutMs: timeouts.attemptTimeoutMs,
      deadlineMs: timeouts.timeoutMs,
      retry: { maxRetries: settings.v1Retries, baseDelayMs: 20, maxDelayMs: 200, budgetRatio: 0.5, budgetBurst: 20 },
      // 40 attempts at least: with 10, a backend failing 20 % of calls opened it in 4 % of starts
      // (half of the first 10 to 20 attempts failing by chance); with 40, in none of 20,000 simulated
      breaker: { windowMs: 2_000, minAttempts: 40, failureRatio: 0.5, openMs: settings.v1BreakerOpenMs },
      onBreaker: (state) => {
        metrics.circuitOpen.set({ backend: label }, state === 'open' ? 1 : 0);
        if (state === 'open')
          app.log.error(`${name}: circuit open (half of the last attempts failed); calls fail fast, with a trial every ${settings.v1BreakerOpenMs} ms`);
        else app.log.warn(`${name}: circuit closed again (a trial call was answered)`);
      },
    });
  const v1Backend = backend(v1.origin, 'the v1 backend', { timeoutMs: settings.v1TimeoutMs, attemptTimeoutMs: settings.v1AttemptTimeoutMs }, 'v1');
  metrics.circuitOpen.set({ backend: 'v1' }, 0);
  const issuerOrigin = v1Origin(settings.v1IssuerUrl);
  const issuerTimeouts = { timeoutMs: settings.v1IssuerTimeoutMs, attemptTimeoutMs: settings.v1IssuerAttemptTimeoutMs };
  // the issuer shares the v1 pool (and its breaker) when it is the same origin with the same timeouts
  const issuerBackend =
    issuerOrigin.origin === v1.origin && issuerTimeouts.timeoutMs === settings.v1TimeoutMs && issuerTimeouts.attemptTimeoutMs === settings.v1AttemptTimeoutMs
      ? v1Backend
      : backend(issuerOrigin.origin, 'the v1 token issuer', issuerTimeouts, 'issuer');
  const v1Client = new V1Client(v1, v1Backend.dispatcher, { ...limits, observe: metrics.upstreamObserver('v1') });
  const issuer = new V1Client(issuerOrigin, issuerBackend.dispatcher, { ...limits, timeoutMs: issuerTimeouts.timeoutMs });
  const probe = new V1Probe(v1, v1Backend.dispatcher, settings.v1TimeoutMs);
  takeRequest = v1Reads({ v1, dispatcher: v1Backend.dispatcher, maxResponseBytes: settings.v1MaxResponseBytes, logged: (line) => requestLog.completed(line) });
  // closing, whether from a drain or a direct close: GOAWAY, Connection: close, idle connections closed once all is answered
  app.addHook('preClose', (done) => {
    lifecycle.closing();
    done();
  });
  // at the drain's deadline the calls still under way end (the v1 passthrough's too), and their requests answer SHUTTING_DOWN
  lifecycle.onDeadline(() => {
    for (const pool of new Set([v1Backend, issuerBackend, nativeBackend])) void pool?.destroy(apiError('SHUTTING_DOWN'));
  });
  // a callback hook: no promise per request
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });

  app.setErrorHandler((err, req, reply) => {
    const apiError = toApiError(err);
    if (apiError.code === GrpcCode.INTERNAL) req.log.error({ err }, 'request failed');
    return sendError(reply, apiError);
  });
  app.setNotFoundHandler((req, reply) => sendError(reply, noRoute(req)));

  registerFormParser(app);
  registerStsRoutes(app, issuer, lifecycle, () => ({ publicUrl: settings.publicUrl, v1Audience: settings.v1Audience }));
  const descriptors = connectionBoundWarning(settings.maxConnections);
  if (descriptors) app.log.warn(descriptors);
  if (!settings.pageTokenSecret) {
    app.log.warn('PAGE_TOKEN_SECRET is not set: page tokens are sealed with a random key and stop working when this process restarts');
  }
  const lists: AppServices['lists'] = {
    cache: new SnapshotCache({ ttlMs: settings.listCacheTtlMs, maxBytes: settings.listCacheMaxBytes }),
    tokens: new PageTokenCodec(settings.pageTokenSecret ?? randomBytes(32).toString('base64url')),
    reauthMs: settings.listReauthMs,
  };
  // REDIS_URL: the state replicas must agree on (write locks, idempotency records, META_STORE=redis);
  // connected in the background: a replica starts (not ready) while Redis is away, and recovers by itself
  const redis = settings.redisUrl
    ? openRedis(settings.redisUrl, settings.redisTimeoutMs, {
        down: (message) => app.log.error(`${message}: requests that need it answer 503 (retryable) and /readyz 503 until it answers again`),
        up: () => app.log.warn('Redis answers again'),
      })
    : undefined;
  // a Redis that is up is connected before the first request; one that is not does not hold the start
  if (redis) await redisConnected(redis, Math.max(1_000, settings.redisTimeoutMs));
  // the fleet's news: a write through any replica ends every replica's snapshots of that resource
  const channel = redis ? new FleetChannel(redis) : undefined;
  if (channel) {
    channel.on(LISTS_TOPIC, (resource) => lists.cache.invalidateResource(resource));
    // what was published while the subscription was away is lost: nothing kept may be trusted
    channel.onReconnect(() => lists.cache.clear());
    lists.written = (resource) => channel.publish(LISTS_TOPIC, resource);
  }
  // the fleet's rollout state (kill switch, rollbacks): read before this replica is ready, then followed
  if (channel && redis) {
    channel.on(CONTROL_TOPIC, (version) => rollout.announced(Number(version)));
    channel.onReconnect(() => rollout.announced(undefined));
    await rollout.followFleet(new RedisFleetState(redis, CONTROL_TOPIC), FLEET_POLL_MS, new RedisGuardCounters(redis));
  }
  const self = { id: `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`, startedAt: Date.now() };
  // progressive routes: with a fleet, one state per route and one replica (the lease's) judging the fleet's counts
  if (redis) rollout.runProgress(new RedisAnalysisCounters(redis), new RedisLease(redis, 'v2proxy:analysis-lease'), self.id, 'redis');
  else rollout.runProgress(new MemoryAnalysisCounters(opts.now), { hold: async () => true }, self.id, 'memory');
  // the roster of the fleet: this replica checks in every second, `/admin/fleet` lists the live ones
  const roster = redis ? new FleetRoster(redis) : undefined;
  const checkIn = () => {
    const a = app.server.address();
    const address = typeof a === 'object' && a ? `${a.address.includes(':') ? `[${a.address}]` : a.address}:${a.port}` : 'not listening';
    const fleet = rollout.fleetStatus();
    roster?.checkIn({ ...self, address, version: fleet?.version ?? 0, digest: fleet?.digest ?? '', checkedAt: Date.now() });
  };
  const checkingIn = roster ? setInterval(checkIn, ROSTER_CHECK_IN_MS) : undefined;
  checkingIn?.unref();
  app.addHook('onReady', async () => checkIn());
  metrics.rolloutGauges({
    killSwitch: () => rollout.killSwitch,
    rolledBack: () => rollout.rolledBackRoutes(),
    fleet: () => rollout.fleetStatus(),
    progressive: () => rollout.progressiveRoutes(),
  });
  // with a fleet, ready once Redis answers and the fleet state has been read (a restart comes up killed if the fleet is)
  const fleetReady = async (r: NonNullable<typeof redis>) => {
    const answers = await redisAnswers(r);
    if (answers.ok && !rollout.fleetStatus()?.synced) await rollout.syncFleet();
    return answers.ok && !rollout.fleetStatus()?.synced ? { ok: false as const, reason: 'the fleet state is not read yet' } : answers;
  };
  registerHealthRoutes(app, probe, lifecycle, redis ? () => fleetReady(redis) : undefined);
  const ownMeta =
    opts.meta || (settings.metaStore === 'redis' && redis)
      ? undefined
      : await openMetaStore(settings.metaStore, (message, err) => app.log.warn({ err }, message));
  const meta: TimesStore = opts.meta ?? ownMeta ?? new RedisMetaStore(redis as NonNullable<typeof redis>);
  const nativeOrigin = settings.v2BaseUrl ? v1Origin(settings.v2BaseUrl) : undefined;
  const nativeBackend = nativeOrigin
    ? backend(nativeOrigin.origin, 'the native v2 backend', { timeoutMs: settings.v2TimeoutMs, attemptTimeoutMs: settings.v2AttemptTimeoutMs }, 'v2')
    : undefined;
  const native =
    nativeOrigin && nativeBackend
      ? new NativeV2Client(nativeOrigin.basePath, nativeBackend.dispatcher, {
          timeoutMs: settings.v2TimeoutMs,
          maxResponseBytes: settings.v1MaxResponseBytes,
          observe: metrics.upstreamObserver('v2'),
        })
      : undefined;
  if (opts.watchRollout !== false) rollout.watch();
  // with a fleet, what this replica books is also sent to the fleet's report every second
  const unsent = channel ? new DiffBook({ sampleValues: settings.diffSampleValues }) : undefined;
  const diffs = new DiffBook({ sampleValues: settings.diffSampleValues, ...(unsent ? { also: unsent } : {}) });
  const fleetDiffs = redis && unsent ? new FleetDiffReport(redis) : undefined;
  let unsentBatches: RouteDelta[][] = [];
  const sendDiffs = async () => {
    if (!fleetDiffs || !unsent) return;
    // kept until Redis takes them (at most a minute of them while it is away)
    unsentBatches = [...unsentBatches, unsent.drain()].slice(-60);
    try {
      await fleetDiffs.add(unsentBatches.flat());
      unsentBatches = [];
    } catch {
      // Redis away: sent with the next flush
    }
  };
  const sendingDiffs = fleetDiffs ? setInterval(() => void sendDiffs(), DIFF_FLUSH_MS) : undefined;
  sendingDiffs?.unref();
  channel?.on(DIFF_RESET_TOPIC, () => {
    diffs.reset();
    unsent?.reset();
    unsentBatches = [];
  });
  const diffReport = {
    report: async () => (fleetDiffs ? reportOf(await fleetDiffs.routes()) : diffs.report()),
    reset: async () => {
      diffs.reset();
      if (!fleetDiffs) return;
      await fleetDiffs.reset();
      channel?.publish(DIFF_RESET_TOPIC, '');
    },
  };
  const shadow = native
    ? new ShadowRunner({
        maxInflight: settings.shadowMaxInflight,
        startDelayMs: 2,
        book: diffs,
        outcome: (resource, operation, outcome) => metrics.shadow.inc({ resource, operation, outcome }),
      })
    : undefined;
  const record = settings.recordFile
    ? new RecordFile(settings.recordFile, {
        samplePercent: settings.recordSample,
        onError: (err) => app.log.error({ err }, `RECORD_FILE ${settings.recordFile} cannot be written; recording stops`),
      })
    : undefined;
  // after the last connection: shadows finish (or stop at the drain's deadline), then what they use closes
  app.addHook('onClose', async () => {
    rollout.stop();
    await webhook?.close(1_000);
    await shadow?.idle();
    await record?.close();
    await Promise.all([v1Backend.close(), issuerBackend === v1Backend ? undefined : issuerBackend.close(), nativeBackend?.close()]);
    await ownMeta?.close();
    clearInterval(checkingIn);
    clearInterval(sendingDiffs);
    await sendDiffs();
    await roster?.leave(self.id);
    channel?.close();
    await redis?.quit().catch(() => redis.disconnect());
    lists.cache.clear();
    // the last lines of a stopping proxy are written now, not at the next periodic flush
    buffered?.close();
  });
  registerAdminRoutes(app, {
    adminToken: settings.adminToken,
    rollout,
    metrics,
    diffs: diffReport,
    fleet: roster
      ? async () => {
          const now = Date.now();
          const version = rollout.fleetStatus()?.version ?? 0;
          const replicas = await roster.list(now, ROSTER_FORGET_MS);
          return {
            version,
            self: self.id,
            replicas: replicas.map((r) => ({
              id: r.id,
              address: r.address,
              version: r.version,
              rolloutDigest: r.digest,
              checkedAt: new Date(r.checkedAt).toISOString(),
              uptimeSeconds: Math.round((now - r.startedAt) / 1000),
              // behind the fleet, or silent for longer than a few check-ins
              stale: r.version < version || now - r.checkedAt > 3 * ROSTER_CHECK_IN_MS,
            })),
          };
        }
      : undefined,
  });
  const services: AppServices = {
    lists,
    locks: redis ? new RedisWriteLock(redis, { leaseMs: Math.max(5_000, 3 * settings.v1TimeoutMs), waitMs: 30_000 }) : new KeyedLock(),
    idempotency: redis ? new RedisIdempotency(redis) : new MemoryIdempotency(100_000, opts.now),
    resources: new Map(resources.map((r) => [r.mapping.resource, r])),
    lookups: new LookupCache({ ttlMs: settings.lookupCacheTtlMs, maxEntries: 100_000 }),
    meta,
    now: opts.now ?? Date.now,
    warn: (message, err) => app.log.warn({ err }, message),
  };
  // one pipeline, two front doors: REST, and gRPC (with gRPC-Web and Connect)
  const pipeline = new ExchangePipeline({
    v1: v1Client,
    services,
    rollout,
    native: native !== undefined,
    issuedHere: (token) => lists.tokens.issued(token),
    shadow,
    record,
    metrics,
    shutdownSignal: lifecycle.shutdownSignal,
    ...(opts.random ? { random: opts.random } : {}),
  });
  registerV2Routes(app, new RouteTable(resources), pipeline, native, lifecycle);
  const nativeGrpc = settings.v2BaseUrl
    ? new NativeGrpcClient(settings.v2BaseUrl, {
        timeoutMs: settings.v2TimeoutMs,
        maxResponseBytes: settings.v1MaxResponseBytes,
        observe: metrics.upstreamObserver('v2'),
      })
    : undefined;
  app.addHook('onClose', async () => nativeGrpc?.close());
  const procedures = grpcProcedures({
    resources: services.resources,
    pipeline,
    native: nativeGrpc,
    bug: (err, reqId) => app.log.error({ err, reqId }, 'request failed'),
  });
  takeStream = grpcStreamCalls({
    procedures,
    limit: settings.bodyLimit,
    requestTimeoutMs: settings.requestTimeoutMs,
    unread: drainLimits(settings),
    lifeOf: (stream) => lifecycle.streamLife(stream),
    logged: (line) => requestLog.completed(line),
  });
  await registerConnectRoutes(app, {
    routes: (router) => {
      grpcRoutes(procedures)(router);
      reflectionRoutes(GRPC_SERVICES.map(([service]) => service))(router);
    },
    contextValues: (req) => createContextValues().set(REQUEST_ID, req.id),
    // a message is bounded like a REST body (after decompression)
    readMaxBytes: settings.bodyLimit,
    shutdownSignal: lifecycle.shutdownSignal,
    statusOf: (service, err) => grpcStatusOf(services.resources, service, err),
  });
  await registerV1Passthrough(app, v1, v1Backend.dispatcher, settings.v1MaxResponseBytes);
  return app;
}
