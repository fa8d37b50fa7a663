import type { Tracing } from './tracing.js';

export const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type SamplerName = (typeof SAMPLERS)[number];

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL (traces go to `<it>/v1/traces`) */
  endpoint: string | undefined;
  /** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: the traces URL itself (wins over `endpoint`) */
  tracesEndpoint: string | undefined;
  serviceName: string;
  serviceVersion: string;
  sampler: SamplerName;
  /** the ratio of the ratio samplers (0 to 1) */
  samplerArg: number;
  /** how long finished spans wait to be exported in one batch, ms */
  scheduleDelayMs: number;
}

/**
 * Tracing over OTLP/HTTP when an endpoint is set, else none: without one, no SDK module is even
 * loaded (a request pays one check). Spans leave in batches (at most 2,048 queued; beyond that the
 * newest are dropped rather than held), off the request path.
 */
export async function startTracing(opts: TracingOptions): Promise<Tracing | undefined> {
  const url = opts.tracesEndpoint ?? (opts.endpoint === undefined ? undefined : `${opts.endpoint.replace(/\/+$/, '')}/v1/traces`);
  if (url === undefined) return undefined;
  const [sdk, { OTLPTraceExporter }, { resourceFromAttributes }, { Tracing }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('./tracing.js'),
  ]);
  const ratio = new sdk.TraceIdRatioBasedSampler(opts.samplerArg);
  const samplers = {
    always_on: () => new sdk.AlwaysOnSampler(),
    always_off: () => new sdk.AlwaysOffSampler(),
    traceidratio: () => ratio,
    parentbased_always_on: () => new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() }),
    parentbased_always_off: () => new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() }),
    parentbased_traceidratio: () => new sdk.ParentBasedSampler({ root: ratio }),
  } satisfies Record<SamplerName, () => unknown>;
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ 'service.name': opts.serviceName, 'service.version': opts.serviceVersion }),
    sampler: samplers[opts.sampler](),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url }),
        scheduledDelayMillis: opts.scheduleDelayMs,
        maxQueueSize: 2048,
        maxExportBatchSize: 512,
      }),
    ],
  });
  return new Tracing(provider.getTracer('v2proxy', opts.serviceVersion), provider);
}
