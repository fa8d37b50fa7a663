import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { apiError } from '../errors/error-registry.js';
import { createContextValues } from '@connectrpc/connect';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { ResolvedSettings } from '../config/settings-schema.js';
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
import { shownUrl } from '../net/shown-url.js';
import { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { AdminOperators } from '../auth/admin-operators.js';
import { DEFAULT_FILE_BOUNDS, RolloutFileReader } from '../rollout/rollout-file-reader.js';
import { RolloutFileError } from '../rollout/rollout-file-source.js';
import { rolledBackAt } from '../rollout/rollout-snapshot.js';
import { shownState } from '../rollout/route-progress.js';
import { drifted } from '../rollout/rollout-status.js';
import { startRollout } from '../rollout/start-rollout.js';
import { DiffBook, REPORT_JUDGEMENT, type ReportWindow, type RouteDelta, reportOf } from '../shadow/diff-book.js';
import { RecordFile } from '../shadow/record-file.js';
import { ShadowRunner } from '../shadow/shadow-runner.js';
import { WriteBook } from '../shadow/write-book.js';
import { openApiDocument } from './openapi-document.js';
import { renderOpenApiPage } from './openapi-page.js';
import { WriteVerifier } from '../shadow/write-verifier.js';
import { NativeV2Client } from '../upstream/native-v2-client.js';
import { registerAdminRoutes } from './admin-routes.js';
import { clientErrorHandler } from './client-error.js';
import { registerHealthRoutes } from './health-routes.js';
import { drainLimits, dualProtocolServer, type RequestTaker, type StreamTaker } from './dual-protocol-server.js';
import { grpcStreamCalls } from './grpc-stream-calls.js';
import { reflectionRoutes } from './grpc-reflection.js';
import { CALL, GRPC_SERVICES, grpcProcedures, grpcRoutes, grpcStatusOf, namedCall } from './grpc-routes.js';
import { registerConnectRoutes } from './connect-routes.js';
import { Lifecycle } from './lifecycle.js';
import { connectionBoundWarning } from './open-file-limit.js';
import { registerJsonBody } from './json-body.js';
import { bufferedLogStream } from './buffered-log-stream.js';
import { lazyChildLogger } from './lazy-child-logger.js';
import { loggerOptions } from './logger-options.js';
import { answerInOneShape, frameworkErrors } from './one-error-shape.js';
import { OneLineRequestLog } from './one-line-request-log.js';
import { FastifyRequestCalls } from './fastify-request-calls.js';
import { AroundRequest, counted, fed, logged, recorded, traced } from '../exchange/around-request.js';
import type { RequestCall } from '../exchange/request-call.js';
import { requestIdOf } from '../exchange/request-id.js';
import { registerFormParser, registerStsRoutes } from './sts-routes.js';
import { registerV1Passthrough, v1Reads } from './v1-passthrough.js';
import { registerV2Routes } from './v2-routes.js';
import { ExchangePipeline } from '../exchange/exchange-pipeline.js';
import { FleetChannel } from '../stores/fleet-channel.js';
import { FleetRoster } from '../stores/fleet-roster.js';
import { WebhookSender } from '../upstream/webhook-sender.js';
import { FleetDiffReport } from '../shadow/fleet-diff-report.js';
import { NativeGrpcClient } from '../upstream/native-grpc-client.js';
import { startTracing } from '../telemetry/start-tracing.js';
import { packageVersion } from '../config/package-version.js';

// the topic of writes: its messages name a resource whose list snapshots every replica drops
const LISTS_TOPIC = 'v2proxy:lists';
// how often a replica checks in to the fleet's roster, and when a silent one is forgotten
const ROSTER_CHECK_IN_MS = 1_000;
const ROSTER_FORGET_MS = 60_000;
// how often a replica sends what it booked to the fleet's diff report
const DIFF_FLUSH_MS = 1_000;

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

declare module 'fastify' {
  interface FastifyInstance {
    /** with ADMIN_PORT: the admin surface's own app, for the caller to listen with (closed with this one) */
    adminApp?: FastifyInstance;
  }
}

/** A listener of the admin surface alone (ADMIN_PORT): the same request ids, log lines and error shape as the API's. */
function adminListener(settings: ResolvedSettings, logs: DestinationStream, calls: FastifyRequestCalls): FastifyInstance {
  const admin = Fastify({
    logger: loggerOptions(settings.logLevel, logs),
    genReqId: requestIdOf,
    logController: calls,
    childLoggerFactory: lazyChildLogger,
    requestIdHeader: false,
    bodyLimit: 64 * 1024,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    frameworkErrors,
  });
  calls.serve(admin);
  answerInOneShape(admin);
  return admin;
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
  // every request's call, fastify's included: its count, record line, analysis, span and log line written around it
  const calls = new FastifyRequestCalls();
  const resources = opts.resources ?? loadMappings();
  const known = new Map(resources.map((r) => [r.mapping.resource, r.mapping.v2.operations]));
  // the rollout file first: a process never starts on one that is missing or invalid (read off the
  // event loop, bounded: whatever is saved there cannot hurt the process)
  const rolloutFiles = settings.rolloutFile
    ? new RolloutFileReader({ maxBytes: settings.rolloutFileMaxBytes, timeoutMs: DEFAULT_FILE_BOUNDS.timeoutMs })
    : undefined;
  const firstRollout = settings.rolloutFile ? await rolloutFiles?.read(settings.rolloutFile, known) : undefined;
  if (firstRollout && !firstRollout.ok) {
    await rolloutFiles?.close();
    throw new RolloutFileError(firstRollout.error);
  }
  const operators = AdminOperators.from(settings);
  if (!operators.ok) throw new Error(operators.error);
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
    logController: calls,
    childLoggerFactory: lazyChildLogger,
    requestIdHeader: false,
    bodyLimit: settings.bodyLimit,
    clientErrorHandler,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    frameworkErrors,
  });
  // v2 bodies are JSON (or the STS form); plain text is refused rather than read as an empty body.
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);
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
  lifecycle.connections.events = {
    refused: () => metrics.connectionsRefused.inc(),
    abusive: (remote) => app.log.warn(`HTTP/2: a client at ${remote} reset most of its streams; its connection was ended (GOAWAY ENHANCE_YOUR_CALM)`),
  };
  // each backend (v1, the token issuer, the native v2) with its own policy: call deadline, attempt
  // timeout, retries, breaker, largest answer (the issuer's are v1's but for its timeouts)
  type BackendPolicy = { timeoutMs: number; attemptTimeoutMs: number; retries: number; breakerOpenMs: number; maxResponseBytes: number };
  const v1Policy = (timeoutMs: number, attemptTimeoutMs: number): BackendPolicy => ({
    timeoutMs,
    attemptTimeoutMs,
    retries: settings.v1Retries,
    breakerOpenMs: settings.v1BreakerOpenMs,
    maxResponseBytes: settings.v1MaxResponseBytes,
  });
  const backend = (origin: string, name: string, policy: BackendPolicy, label: 'v1' | 'issuer' | 'v2') =>
    backendDispatcher(origin, {
      connections: 128,
      maxResponseBytes: policy.maxResponseBytes,
      attemptTimeoutMs: policy.attemptTimeoutMs,
      deadlineMs: policy.timeoutMs,
      retry: { maxRetries: policy.retries, baseDelayMs: 20, maxDelayMs: 200, budgetRatio: 0.5, budgetBurst: 20 },
      // 40 attempts at least: with 10, a backend failing 20 % of calls opened it in 4 % of starts
      // (half of the first 10 to 20 attempts failing by chance); with 40, in none of 20,000 simulated
      breaker: { windowMs: 2_000, minAttempts: 40, failureRatio: 0.5, openMs: policy.breakerOpenMs },
      onBreaker: (state) => {
        metrics.circuitOpen.set({ backend: label }, state === 'open' ? 1 : 0);
        if (state === 'open')
          app.log.error(`${name}: circuit open (half of the last attempts failed); calls fail fast, with a trial every ${policy.breakerOpenMs} ms`);
        else app.log.warn(`${name}: circuit closed again (a trial call was answered)`);
      },
    });
  const v1Backend = backend(v1.origin, 'the v1 backend', v1Policy(settings.v1TimeoutMs, settings.v1AttemptTimeoutMs), 'v1');
  metrics.circuitOpen.set({ backend: 'v1' }, 0);
  const issuerOrigin = v1Origin(settings.v1IssuerUrl);
  const issuerTimeouts = { timeoutMs: settings.v1IssuerTimeoutMs, attemptTimeoutMs: settings.v1IssuerAttemptTimeoutMs };
  // the issuer shares the v1 pool (and its breaker) when it is the same origin with the same timeouts
  const issuerBackend =
    issuerOrigin.origin === v1.origin && issuerTimeouts.timeoutMs === settings.v1TimeoutMs && issuerTimeouts.attemptTimeoutMs === settings.v1AttemptTimeoutMs
      ? v1Backend
      : backend(issuerOrigin.origin, 'the v1 token issuer', v1Policy(issuerTimeouts.timeoutMs, issuerTimeouts.attemptTimeoutMs), 'issuer');
  const v1Client = new V1Client(v1, v1Backend.dispatcher, { ...limits, observe: metrics.upstreamObserver('v1') });
  const issuer = new V1Client(issuerOrigin, issuerBackend.dispatcher, { ...limits, timeoutMs: issuerTimeouts.timeoutMs, backend: 'issuer' });
  const probe = new V1Probe(v1, v1Backend.dispatcher, settings.v1TimeoutMs);
  // closing, whether from a drain or a direct close: GOAWAY, Connection: close, idle connections closed once all is answered
  app.addHook('preClose', (done) => {
    lifecycle.closing();
    done();
  });
  // at the drain's deadline the calls still under way end (the v1 passthrough's too), and their requests answer SHUTTING_DOWN
  lifecycle.onDeadline(() => {
    for (const pool of new Set([v1Backend, issuerBackend, nativeBackend])) void pool?.destroy(apiError('SHUTTING_DOWN'));
  });
  calls.serve(app);
  answerInOneShape(app);

  // with an OTLP endpoint: spans of each request and of its upstream attempts (else no SDK at all)
  const tracing = await startTracing({
    endpoint: settings.otelExporterOtlpEndpoint,
    tracesEndpoint: settings.otelExporterOtlpTracesEndpoint,
    serviceName: settings.otelServiceName,
    serviceVersion: packageVersion(),
    sampler: settings.otelTracesSampler,
    samplerArg: settings.otelTracesSamplerArg,
    scheduleDelayMs: settings.otelBspScheduleDelay,
  });
  // the last spans leave with the last answers
  app.addHook('onClose', async () => tracing?.shutdown().catch((err: unknown) => app.log.warn({ err }, 'the last spans could not be exported')));
  registerFormParser(app);
  registerStsRoutes(app, issuer, lifecycle, () => ({ publicUrl: settings.publicUrl, v1Audience: settings.v1Audience }), tracing);
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
  const self = { id: `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`, startedAt: Date.now() };
  // the diff report's side of an operator's reset (set once the report exists, below)
  let followReset: (() => Promise<void>) | undefined;
  const now = opts.now ?? Date.now;
  // the rollout: its control state (the fleet's with REDIS_URL, read before this replica is ready, then followed)
  const rollout = await startRollout({
    file: settings.rolloutFile,
    first: firstRollout,
    reader: rolloutFiles,
    known,
    // as every URL the proxy shows: without credentials, query or fragment
    nativeBackend: settings.v2BaseUrl === undefined ? undefined : shownUrl(settings.v2BaseUrl),
    overrideSecret: settings.rolloutOverrideSecret,
    now,
    fleet: redis && channel ? { redis, channel, holder: self.id } : undefined,
    events: {
      info: (message) => app.log.info(message),
      warn: (message) => app.log.warn(message),
      error: (message) => app.log.error(message),
      changed: (records) => {
        for (const r of records) {
          const to = r.after?.state;
          if (r.route && r.action.startsWith('route.') && !r.action.endsWith('-requested') && typeof to === 'string')
            metrics.progressChanges.inc({ resource: r.route.resource, to });
          webhook?.send({ type: 'rollout.change', ...r });
        }
      },
      rollback: (route) => metrics.rollbacks.inc({ resource: route.route.resource }),
      reload: (result) => metrics.reloads.inc({ result }),
      // an operator's reset of the diff report, followed the moment it is in force here
      applied: () => void followReset?.().catch(() => undefined),
    },
  });
  if (operators.operators.size === 0)
    app.log.warn(
      'the admin API is off: no ADMIN_TOKEN, ADMIN_TOKENS or ADMIN_TOKENS_FILE is set, and with REDIS_URL no replica makes a token of its own (each would have another)',
    );
  // the roster of the fleet: this replica checks in every second, `/admin/fleet` lists the live ones
  const roster = redis ? new FleetRoster(redis) : undefined;
  const selfEntry = () => {
    const a = app.server.address();
    const address = typeof a === 'object' && a ? `${a.address.includes(':') ? `[${a.address}]` : a.address}:${a.port}` : 'not listening';
    const s = rollout.control.snapshot;
    return { ...self, address, epoch: s.head.epoch, version: s.head.version, digest: s.local.digest, appliedDigest: s.digest, checkedAt: Date.now() };
  };
  const checkIn = () => roster?.checkIn(selfEntry());
  const checkingIn = roster ? setInterval(checkIn, ROSTER_CHECK_IN_MS) : undefined;
  checkingIn?.unref();
  app.addHook('onReady', async () => checkIn());
  metrics.rolloutGauges({
    killSwitch: () => rollout.control.snapshot.killSwitch,
    rolledBack: () => {
      const at = now();
      return rollout.control.snapshot.routes
        .filter((r) => rolledBackAt(r, at))
        .map((r) => ({ resource: r.route.resource, operations: r.route.operations.join(',') }));
    },
    fleet: () => rollout.fleetStatus(),
    drift: () => drifted(rollout.control.snapshot),
    progressive: () =>
      rollout.control.snapshot.routes
        .filter((r) => r.schedule)
        .map((r) => ({
          resource: r.route.resource,
          operations: r.route.operations.join(','),
          state: shownState(r.progress),
          step: (r.progress?.step ?? 0) + 1,
          native: r.share.native,
        })),
  });
  // with a fleet, ready once Redis answers and the fleet state has been read (a restart comes up killed if the fleet is)
  const fleetReady = async (r: NonNullable<typeof redis>) => {
    const answers = await redisAnswers(r);
    if (answers.ok && !rollout.fleetStatus()?.synced) await rollout.sync?.sync();
    return answers.ok && !rollout.fleetStatus()?.synced ? { ok: false as const, reason: 'the fleet state is not read yet' } : answers;
  };
  registerHealthRoutes(app, probe, lifecycle, redis ? () => fleetReady(redis) : undefined);
  // the REST surface's contract, from the mappings and protos that serve it: made on the first ask
  // for it (most replicas are never asked), then kept
  let contract: { json: string; page: string } | undefined;
  const openApi = () => {
    if (!contract) {
      const doc = openApiDocument(resources, packageVersion());
      contract = { json: JSON.stringify(doc), page: renderOpenApiPage(doc) };
    }
    return contract;
  };
  app.get('/openapi.json', async (_req, reply) => reply.type('application/json').header('cache-control', 'no-cache').send(openApi().json));
  // its reference page: no script, nothing from elsewhere, never framed
  app.get('/docs', async (_req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('x-frame-options', 'DENY')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
      .send(openApi().page),
  );
  const ownMeta =
    opts.meta || (settings.metaStore === 'redis' && redis)
      ? undefined
      : await openMetaStore(settings.metaStore, (message, err) => app.log.warn({ err }, message));
  const meta: TimesStore = opts.meta ?? ownMeta ?? new RedisMetaStore(redis as NonNullable<typeof redis>, { waitMs: settings.redisTimeoutMs });
  const nativeOrigin = settings.v2BaseUrl ? v1Origin(settings.v2BaseUrl) : undefined;
  const nativeBackend = nativeOrigin
    ? backend(
        nativeOrigin.origin,
        'the native v2 backend',
        {
          timeoutMs: settings.v2TimeoutMs,
          attemptTimeoutMs: settings.v2AttemptTimeoutMs,
          retries: settings.v2Retries,
          breakerOpenMs: settings.v2BreakerOpenMs,
          maxResponseBytes: settings.v2MaxResponseBytes,
        },
        'v2',
      )
    : undefined;
  // a v1 setting that also governs the native backend (its V2_* unset) is named, with the one to use
  for (const warning of settings.warnings) app.log.warn(warning);
  const native =
    nativeOrigin && nativeBackend
      ? new NativeV2Client(nativeOrigin.origin, nativeOrigin.basePath, nativeBackend.dispatcher, {
          timeoutMs: settings.v2TimeoutMs,
          maxResponseBytes: settings.v2MaxResponseBytes,
          observe: metrics.upstreamObserver('v2'),
        })
      : undefined;
  // a wrong backend URL is said at once, not found out from the first failed requests
  // each with what its silence means
  const startProbes: [string, string, V1Probe, string][] = [['the v1 backend', settings.v1BaseUrl, probe, '/readyz answers 503 until it does']];
  if (nativeOrigin && nativeBackend && settings.v2BaseUrl)
    startProbes.push([
      'the native v2 backend',
      settings.v2BaseUrl,
      new V1Probe(nativeOrigin, nativeBackend.dispatcher, settings.v2TimeoutMs, '/iam/v2beta1/groups?page_size=1'),
      'native shares fail (and the guard rolls them back) until it does',
    ]);
  app.addHook('onListen', (done) => {
    for (const [name, url, check, then] of startProbes)
      void check.check().then((result) => {
        if (!result.ok) app.log.warn(`${name} at ${shownUrl(url)} does not answer (${result.reason}): ${then}`);
      });
    done();
  });
  if (opts.watchRollout !== false) rollout.watch();
  // with a fleet, what this replica books is also sent to the fleet's report every second
  const unsent = channel ? new DiffBook({ sampleValues: settings.diffSampleValues }) : undefined;
  const diffs = new DiffBook({ sampleValues: settings.diffSampleValues, ...(unsent ? { also: unsent } : {}) });
  const fleetDiffs = redis && unsent ? new FleetDiffReport(redis) : undefined;
  let unsentBatches: RouteDelta[][] = [];
  // this replica's report began when it started, or at the operators' last reset
  let diffsSince = Date.now();
  // an operator's reset is a change of the control state: each replica clears its own book the
  // moment it holds a state with a newer one, and the fleet's report (which takes a reset once)
  // until that is done: a clear Redis missed is made again at the next flush
  const startedWith = rollout.control.snapshot.doc.diffReset?.at ?? 0;
  let resetSeen = startedWith;
  let fleetResetSeen = startedWith;
  followReset = async () => {
    const reset = rollout.control.snapshot.doc.diffReset;
    if (!reset) return;
    if (reset.at > resetSeen) {
      resetSeen = reset.at;
      diffs.reset();
      unsent?.reset();
      unsentBatches = [];
      diffsSince = reset.at;
    }
    if (fleetDiffs && reset.at > fleetResetSeen) {
      await fleetDiffs.reset(reset.at);
      fleetResetSeen = Math.max(fleetResetSeen, reset.at);
    }
  };
  const sendDiffs = async () => {
    if (!fleetDiffs || !unsent) return;
    try {
      await followReset?.();
      // kept until Redis takes them (at most a minute of them while it is away)
      unsentBatches = [...unsentBatches, unsent.drain()].slice(-60);
      await fleetDiffs.add(unsentBatches.flat());
      unsentBatches = [];
    } catch {
      // Redis away: sent with the next flush
    }
  };
  const sendingDiffs = fleetDiffs ? setInterval(() => void sendDiffs(), DIFF_FLUSH_MS) : undefined;
  sendingDiffs?.unref();
  const diffReport = {
    report: async (window?: ReportWindow) => {
      await followReset?.();
      return fleetDiffs ? reportOf(await fleetDiffs.routes(window)) : diffs.report(REPORT_JUDGEMENT, window);
    },
    since: async () => {
      await followReset?.();
      return fleetDiffs ? ((await fleetDiffs.since()) ?? diffsSince) : diffsSince;
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
  // a share of a route's writes read back and checked, booked with the shadow's reads
  const verifier: WriteVerifier | undefined = native
    ? new WriteVerifier({
        maxInflight: settings.verifyMaxInflight,
        delayMs: settings.verifyDelayMs,
        retries: settings.verifyRetries,
        book: new WriteBook(diffs),
        quiet: (): Promise<void> => pipeline.quiet(),
        outcome: (resource, operation, outcome, failing) => {
          metrics.verifications.inc({ resource, operation, outcome });
          for (const check of failing ?? []) metrics.writeDifferences.inc({ resource, operation, check });
        },
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
    await rolloutFiles?.close();
    await webhook?.close(1_000);
    await shadow?.idle();
    await verifier?.idle();
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
  // the admin surface: on a listener of its own with ADMIN_PORT, else on this one
  const adminApp = settings.adminPort !== undefined ? adminListener(settings, logs, calls) : undefined;
  if (adminApp) {
    app.decorate('adminApp', adminApp);
    app.addHook('onClose', async () => adminApp.close());
  }
  const replicaView = (entry: ReturnType<typeof selfEntry>, at: number, version: number, epoch: string) => ({
    id: entry.id,
    address: entry.address,
    epoch: entry.epoch,
    version: entry.version,
    rolloutDigest: entry.digest,
    appliedDigest: entry.appliedDigest,
    drift: entry.digest !== '' && entry.appliedDigest !== '' && entry.digest !== entry.appliedDigest,
    checkedAt: new Date(entry.checkedAt).toISOString(),
    uptimeSeconds: Math.round((at - entry.startedAt) / 1000),
    // behind the fleet, or silent for longer than a few check-ins
    stale: entry.epoch !== epoch || entry.version < version || at - entry.checkedAt > 3 * ROSTER_CHECK_IN_MS,
  });
  registerAdminRoutes(adminApp ?? app, {
    operators: operators.operators,
    rollout,
    metrics,
    diffs: diffReport,
    fleet: async () => {
      const at = Date.now();
      const head = rollout.control.snapshot.head;
      const sync = rollout.fleetStatus();
      if (!roster) return { version: head.version, self: self.id, replicas: [], note: 'a single replica: REDIS_URL is not set' };
      const own = { version: head.version, epoch: head.epoch, self: self.id, staleSeconds: sync?.staleSeconds ?? null, stale: sync?.stale ?? false };
      try {
        const entries = await roster.list(at, ROSTER_FORGET_MS);
        return { ...own, roster: 'known', replicas: entries.map((e) => replicaView({ ...selfEntry(), ...e }, at, head.version, head.epoch)) };
      } catch (err) {
        // Redis away: what this replica knows of itself, and that the others are unknown
        return {
          ...own,
          roster: 'unknown',
          note: `Redis does not answer (${(err as Error).message}): the other replicas are unknown; this replica serves on the control state it applied`,
          replicas: [{ ...replicaView(selfEntry(), at, head.version, head.epoch), stale: true }],
        };
      }
    },
  });
  const services: AppServices = {
    lists,
    locks: redis ? new RedisWriteLock(redis, { leaseMs: settings.redisLeaseMs, waitMs: 30_000 }) : new KeyedLock(),
    idempotency: redis ? new RedisIdempotency(redis, settings.redisLeaseMs) : new MemoryIdempotency(100_000, opts.now),
    resources: new Map(resources.map((r) => [r.mapping.resource, r])),
    lookups: new LookupCache({ ttlMs: settings.lookupCacheTtlMs, maxEntries: 100_000 }),
    meta,
    now: opts.now ?? Date.now,
    warn: (message, err) => app.log.warn({ err }, message),
  };
  // one pipeline, two front doors: REST, and gRPC (with gRPC-Web and Connect)
  const pipeline = new ExchangePipeline({
    tracing,
    v1: v1Client,
    services,
    rollout: rollout.traffic,
    native: native !== undefined,
    issuedHere: (token) => lists.tokens.issued(token),
    shadow,
    verifier,
    nativeReads: native,
    shutdownSignal: lifecycle.shutdownSignal,
    ...(opts.random ? { random: opts.random } : {}),
  });
  // what is written around every request, whichever way it came in (outermost first: the line is the last thing)
  const requestLog = new OneLineRequestLog(settings.logLevel, logs, app.log);
  const around = new AroundRequest([logged(requestLog.write), traced, counted(metrics), fed(rollout.traffic), ...(record ? [recorded(record, now)] : [])]);
  calls.runIn(around);
  registerV2Routes(app, new RouteTable(resources), pipeline, native, lifecycle, calls);
  // native gRPC under the native backend's policy: its breaker, retry budget and timeouts are the REST calls' own
  const nativeGrpc =
    settings.v2BaseUrl && nativeBackend
      ? new NativeGrpcClient(settings.v2BaseUrl, {
          policy: nativeBackend.parts,
          maxResponseBytes: settings.v2MaxResponseBytes,
          observe: metrics.upstreamObserver('v2'),
        })
      : undefined;
  app.addHook('onClose', async () => nativeGrpc?.close());
  // at the drain's deadline its session ends too (its calls answer SHUTTING_DOWN)
  lifecycle.onDeadline(() => nativeGrpc?.close());
  const procedures = grpcProcedures({
    resources: services.resources,
    pipeline,
    native: nativeGrpc,
  });
  takeStream = grpcStreamCalls({
    procedures,
    limit: settings.bodyLimit,
    requestTimeoutMs: settings.requestTimeoutMs,
    unread: drainLimits(settings),
    lifeOf: (stream) => lifecycle.streamLife(stream),
    around,
  });
  const grpcOpener = calls.opener('grpc');
  await registerConnectRoutes(app, {
    routes: (router) => {
      grpcRoutes(procedures)(router);
      reflectionRoutes(GRPC_SERVICES.map(([service]) => service))(router);
    },
    contextValues: (req) => createContextValues().set(CALL, req.call),
    // a message is bounded like a REST body (after decompression)
    readMaxBytes: settings.bodyLimit,
    shutdownSignal: lifecycle.shutdownSignal,
    statusOf: (service, err) => grpcStatusOf(services.resources, service, err),
    // a call of one of the 40 RPCs is counted with its resource and operation (reflection is not counted)
    opener: (path) => {
      const procedure = procedures.get(path);
      if (!procedure) return (_req, _reply, done) => done();
      return (req, reply, done) => {
        namedCall(req.call as RequestCall, procedure);
        grpcOpener.call(app, req, reply, done);
      };
    },
    rendered: (req, reply) => calls.rendered(req, reply),
  });
  const passthrough = { v1, dispatcher: v1Backend.dispatcher, maxResponseBytes: settings.v1MaxResponseBytes, tracing };
  takeRequest = v1Reads({ ...passthrough, around });
  await registerV1Passthrough(app, passthrough, calls.opener('v1'));
  return app;
}
