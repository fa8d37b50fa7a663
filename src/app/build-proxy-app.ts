import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { AdminOperators } from '../auth/admin-operators.js';
import type { ResolvedSettings } from '../config/settings-schema.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import { loadMappings } from '../mapping/load-mappings.js';
import type { TimesStore } from '../meta/meta-store.js';
import { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { DEFAULT_FILE_BOUNDS, RolloutFileReader } from '../rollout/rollout-file-reader.js';
import type { KnownRoutes } from '../rollout/rollout-config.js';
import { RolloutFileError } from '../rollout/rollout-file-source.js';
import { bufferedLogStream } from '../server/buffered-log-stream.js';
import { FastifyRequestCalls } from '../server/fastify-request-calls.js';
import { Lifecycle } from '../server/lifecycle.js';
import { connectionBoundWarning } from '../server/open-file-limit.js';
import { openAdmin } from './admin-part.js';
import { openBackends } from './backends-part.js';
import { openFleetPresence } from './fleet-presence-part.js';
import { openGrpcDoors } from './grpc-doors-part.js';
import { PartList } from './part-list.js';
import { openPipeline } from './pipeline-part.js';
import { type FastDoors, proxyFastify } from './proxy-fastify.js';
import { openRestDoors } from './rest-doors-part.js';
import { openRollout } from './rollout-part.js';
import { openShadowing } from './shadowing-part.js';
import { openStores } from './stores-part.js';
import { openTelemetry } from './telemetry-part.js';

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

/**
 * The rollout file, read first: a process never starts on one that is missing or invalid (read
 * off the event loop, bounded: whatever is saved there cannot hurt the process).
 */
async function readRolloutFile(settings: ResolvedSettings, known: KnownRoutes) {
  if (!settings.rolloutFile) return { reader: undefined, first: undefined };
  const reader = new RolloutFileReader({ maxBytes: settings.rolloutFileMaxBytes, timeoutMs: DEFAULT_FILE_BOUNDS.timeoutMs });
  const first = await reader.read(settings.rolloutFile, known);
  if (!first.ok) {
    await reader.close();
    throw new RolloutFileError(first.error);
  }
  return { reader, first };
}

/**
 * Assembles the proxy from its parts, each opened after what it uses and closed before it (in
 * reverse, once the listener has closed): telemetry, the stores, the backends, the rollout, this
 * replica in the fleet, shadowing, the pipeline, the REST and gRPC doors, the admin surface.
 */
export async function buildProxyApp(settings: ResolvedSettings, opts: ProxyAppOptions = {}): Promise<FastifyInstance> {
  const buffered = opts.logStream ? undefined : bufferedLogStream();
  const logs = opts.logStream ?? (buffered as DestinationStream);
  const lifecycle = opts.lifecycle ?? new Lifecycle();
  const now = opts.now ?? Date.now;
  const resources = opts.resources ?? loadMappings();
  const known = new Map(resources.map((r) => [r.mapping.resource, r.mapping.v2.operations]));
  const file = await readRolloutFile(settings, known);
  const operators = AdminOperators.from(settings);
  if (!operators.ok) {
    await file.reader?.close();
    throw new Error(operators.error);
  }
  // every request's call, fastify's included: its count, record line, analysis, span and log line written around it
  const calls = new FastifyRequestCalls();
  const doors: FastDoors = {};
  const app = proxyFastify(settings, logs, calls, lifecycle, doors);
  const parts = new PartList({
    closed: (name) => app.log.debug(`shutdown: ${name} closed`),
    failed: (name, err) => app.log.error({ err }, `shutdown: ${name} did not close cleanly`),
  });
  // closing, whether from a drain or a direct close: GOAWAY, Connection: close, idle connections closed once all is answered
  app.addHook('preClose', (done) => {
    lifecycle.closing();
    done();
  });
  // after the last connection: the parts, last opened first; the last lines of a stopping proxy are written now
  app.addHook('onClose', async () => {
    await parts.close();
    buffered?.close();
  });
  const descriptors = connectionBoundWarning(settings.maxConnections);
  if (descriptors) app.log.warn(descriptors);
  const metrics = new ProxyMetrics(lifecycle.connections);
  lifecycle.connections.events = {
    refused: () => metrics.connectionsRefused.inc(),
    abusive: (remote) => app.log.warn(`HTTP/2: a client at ${remote} reset most of its streams; its connection was ended (GOAWAY ENHANCE_YOUR_CALM)`),
  };
  const self = { id: `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`, startedAt: Date.now() };
  try {
    if (file.reader) parts.add({ name: 'rollout file reader', close: () => file.reader.close() });
    const { tracing } = parts.add(await openTelemetry(settings, app.log, metrics));
    const stores = parts.add(await openStores(settings, { now, meta: opts.meta, holder: self.id, log: app.log }));
    const backends = parts.add(openBackends(settings, app, metrics, lifecycle));
    const rolloutPart = parts.add(
      await openRollout(settings, app, metrics, {
        stores,
        known,
        file,
        now,
        watch: opts.watchRollout !== false,
        webhookBackoffMs: opts.webhookBackoffMs ?? 1_000,
      }),
    );
    const { rollout } = rolloutPart;
    const presence = parts.add(openFleetPresence(app, rollout, stores.roster, self));
    const shadowing = parts.add(
      openShadowing(settings, app, metrics, {
        native: backends.native !== undefined,
        rollout,
        fleetReport: stores.diffReport,
        onApplied: rolloutPart.onApplied,
      }),
    );
    const pipeline = parts.add(
      openPipeline(settings, app, { resources, stores, backends, rollout, shadowing, tracing, metrics, lifecycle, logs, now, random: opts.random }),
    );
    calls.runIn(pipeline.around);
    const fleetReady = rolloutPart.ready;
    parts.add(await openRestDoors(settings, app, { resources, backends, pipeline, tracing, lifecycle, calls, doors, fleetReady }));
    parts.add(await openGrpcDoors(settings, app, { pipeline, nativeGrpc: backends.native?.grpc, lifecycle, calls, doors }));
    parts.add(openAdmin(settings, app, { operators: operators.operators, logs, calls, rollout, metrics, diffs: shadowing.diffs, presence }));
  } catch (err) {
    // a part that cannot open: what opened before it is closed, and the start fails
    await parts.close();
    buffered?.close();
    throw err;
  }
  return app;
}
