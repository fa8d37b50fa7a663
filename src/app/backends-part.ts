import type { FastifyInstance } from 'fastify';
import type { ResolvedSettings } from '../config/settings-schema.js';
import { apiError } from '../errors/error-registry.js';
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { shownUrl } from '../net/shown-url.js';
import type { Lifecycle } from '../server/lifecycle.js';
import { type BackendDispatcher, backendDispatcher } from '../upstream/backend-dispatcher.js';
import { NativeGrpcClient } from '../upstream/native-grpc-client.js';
import { NativeV2Client } from '../upstream/native-v2-client.js';
import { V1Client } from '../upstream/v1-client.js';
import { type V1Origin, v1Origin } from '../upstream/v1-origin.js';
import { V1Probe } from '../upstream/v1-probe.js';
import type { Part } from './part-list.js';

// a v1 answer may nest this deep: a record at the v2 limit inside a list envelope, and some room
const MAX_V1_ANSWER_DEPTH = 128;

/** One backend's policy: its call deadline, attempt timeout, retries, breaker and largest answer. */
interface BackendPolicy {
  timeoutMs: number;
  attemptTimeoutMs: number;
  retries: number;
  breakerOpenMs: number;
  maxResponseBytes: number;
}

/** The native v2 backend (V2_BASE_URL): its REST client, its gRPC client, and the pool both share the policy of. */
export interface NativeBackend {
  url: string;
  rest: NativeV2Client;
  grpc: NativeGrpcClient;
  pool: BackendDispatcher;
}

/** The backends the proxy calls, each under its own policy, and the pools they are called through. */
export interface Backends extends Part {
  v1: V1Origin;
  v1Pool: BackendDispatcher;
  v1Client: V1Client;
  issuer: V1Client;
  probe: V1Probe;
  native: NativeBackend | undefined;
}

/** A backend's pool, its policy composed once (request id, retries, breaker, attempt timeout), its breaker told in metrics and the log. */
function pool(origin: string, name: string, label: 'v1' | 'issuer' | 'v2', policy: BackendPolicy, metrics: ProxyMetrics, app: FastifyInstance) {
  return backendDispatcher(origin, {
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
}

/** The native backend, when V2_BASE_URL is set: REST and gRPC under one policy (one breaker, one retry budget). */
function nativeBackend(settings: ResolvedSettings, metrics: ProxyMetrics, app: FastifyInstance): NativeBackend | undefined {
  const url = settings.v2BaseUrl;
  if (url === undefined) return undefined;
  const origin = v1Origin(url);
  const policy = {
    timeoutMs: settings.v2TimeoutMs,
    attemptTimeoutMs: settings.v2AttemptTimeoutMs,
    retries: settings.v2Retries,
    breakerOpenMs: settings.v2BreakerOpenMs,
    maxResponseBytes: settings.v2MaxResponseBytes,
  };
  const nativePool = pool(origin.origin, 'the native v2 backend', 'v2', policy, metrics, app);
  const observe = metrics.upstreamObserver('v2');
  return {
    url,
    pool: nativePool,
    rest: new NativeV2Client(origin.origin, origin.basePath, nativePool.dispatcher, {
      timeoutMs: policy.timeoutMs,
      maxResponseBytes: policy.maxResponseBytes,
      observe,
    }),
    grpc: new NativeGrpcClient(url, { policy: nativePool.policy, maxResponseBytes: policy.maxResponseBytes, observe }),
  };
}

/**
 * The v1 backend, its token issuer (sharing v1's pool and breaker when it is the same origin with
 * the same timeouts) and the native v2 backend. Closed once nothing calls them: calls under way
 * finish; at the drain's deadline they are ended and their requests answer SHUTTING_DOWN.
 */
export function openBackends(settings: ResolvedSettings, app: FastifyInstance, metrics: ProxyMetrics, lifecycle: Lifecycle): Backends {
  const v1 = v1Origin(settings.v1BaseUrl);
  const v1Policy = (timeoutMs: number, attemptTimeoutMs: number): BackendPolicy => ({
    timeoutMs,
    attemptTimeoutMs,
    retries: settings.v1Retries,
    breakerOpenMs: settings.v1BreakerOpenMs,
    maxResponseBytes: settings.v1MaxResponseBytes,
  });
  const v1Pool = pool(v1.origin, 'the v1 backend', 'v1', v1Policy(settings.v1TimeoutMs, settings.v1AttemptTimeoutMs), metrics, app);
  metrics.circuitOpen.set({ backend: 'v1' }, 0);
  const issuerOrigin = v1Origin(settings.v1IssuerUrl);
  const issuerTimeouts = { timeoutMs: settings.v1IssuerTimeoutMs, attemptTimeoutMs: settings.v1IssuerAttemptTimeoutMs };
  const issuerPool =
    issuerOrigin.origin === v1.origin && issuerTimeouts.timeoutMs === settings.v1TimeoutMs && issuerTimeouts.attemptTimeoutMs === settings.v1AttemptTimeoutMs
      ? v1Pool
      : pool(issuerOrigin.origin, 'the v1 token issuer', 'issuer', v1Policy(issuerTimeouts.timeoutMs, issuerTimeouts.attemptTimeoutMs), metrics, app);
  const limits = { timeoutMs: settings.v1TimeoutMs, maxResponseBytes: settings.v1MaxResponseBytes, maxDepth: MAX_V1_ANSWER_DEPTH };
  const native = nativeBackend(settings, metrics, app);
  // a v1 setting that also governs the native backend (its V2_* unset) is named, with the one to use
  for (const warning of settings.warnings) app.log.warn(warning);
  const probe = new V1Probe(v1, v1Pool.dispatcher, settings.v1TimeoutMs);
  // a wrong backend URL is said at once, not found out from the first failed requests, each with what its silence means
  const startProbes: [string, string, V1Probe, string][] = [['the v1 backend', settings.v1BaseUrl, probe, '/readyz answers 503 until it does']];
  if (native)
    startProbes.push([
      'the native v2 backend',
      native.url,
      new V1Probe(v1Origin(native.url), native.pool.dispatcher, settings.v2TimeoutMs, '/iam/v2beta1/groups?page_size=1'),
      'native shares fail (and the guard rolls them back) until it does',
    ]);
  app.addHook('onListen', (done) => {
    for (const [name, url, check, then] of startProbes)
      void check.check().then((result) => {
        if (!result.ok) app.log.warn(`${name} at ${shownUrl(url)} does not answer (${result.reason}): ${then}`);
      });
    done();
  });
  const pools = [...new Set([v1Pool, issuerPool, native?.pool])].filter((p) => p !== undefined);
  // at the drain's deadline the calls still under way end (the v1 passthrough's and native gRPC's too)
  lifecycle.onDeadline(() => {
    for (const p of pools) void p.destroy(apiError('SHUTTING_DOWN'));
    native?.grpc.close();
  });
  return {
    name: 'backends',
    v1,
    v1Pool,
    v1Client: new V1Client(v1, v1Pool.dispatcher, { ...limits, observe: metrics.upstreamObserver('v1') }),
    issuer: new V1Client(issuerOrigin, issuerPool.dispatcher, { ...limits, timeoutMs: issuerTimeouts.timeoutMs, backend: 'issuer' }),
    probe,
    native,
    close: async () => {
      native?.grpc.close();
      await Promise.all(pools.map((p) => p.close()));
    },
  };
}
