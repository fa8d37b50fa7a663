import type { FastifyBaseLogger } from 'fastify';
import type { ResolvedSettings } from '../config/settings-schema.js';
import { packageVersion } from '../config/package-version.js';
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { startTracing } from '../telemetry/start-tracing.js';
import type { Tracing } from '../telemetry/tracing.js';
import type { Part } from './part-list.js';

export interface Telemetry extends Part {
  /** with an OTLP endpoint (else none: no SDK is loaded at all) */
  tracing: Tracing | undefined;
}

/** Spans of each request and its upstream attempts, exported over OTLP; the last ones leave with the last answers. */
export async function openTelemetry(settings: ResolvedSettings, log: FastifyBaseLogger, metrics: ProxyMetrics): Promise<Telemetry> {
  const tracing = await startTracing({
    endpoint: settings.otelExporterOtlpEndpoint,
    tracesEndpoint: settings.otelExporterOtlpTracesEndpoint,
    protocol: settings.otelExporterOtlpProtocol,
    headers: settings.otelExporterOtlpHeaders,
    serviceName: settings.otelServiceName,
    serviceVersion: packageVersion(),
    sampler: settings.otelTracesSampler,
    samplerArg: settings.otelTracesSamplerArg,
    scheduleDelayMs: settings.otelBspScheduleDelay,
    maxQueueSize: settings.otelBspMaxQueueSize,
    maxBatchSize: settings.otelBspMaxExportBatchSize,
    exportTimeoutMs: settings.otelBspExportTimeout,
    counted: (outcome, n) => (outcome === 'exported' ? metrics.traceSpans.inc(n) : metrics.traceSpansDropped.inc({ reason: outcome }, n)),
    warn: (message) => log.warn(message),
    info: (message) => log.info(message),
  });
  return {
    name: 'telemetry',
    tracing,
    close: () => tracing?.shutdown().catch((err: unknown) => log.warn({ err }, 'the last spans could not be exported')),
  };
}
