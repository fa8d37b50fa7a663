import type { Tracing } from './tracing.js';

export const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/** What OTLP/HTTP carries a batch in: `http/protobuf` (the standard's default) or `http/json`. */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL (traces go to `<it>/v1/traces`) */
  endpoint: string | undefined;
  /** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: the traces URL itself (wins over `endpoint`) */
  tracesEndpoint: string | undefined;
  protocol: OtlpProtocol;
  /** extra headers of every export (OTEL_EXPORTER_OTLP_HEADERS, `k=v,k2=v2`, values URL-encoded) */
  headers: string | undefined;
  serviceName: string;
  serviceVersion: string;
  sampler: SamplerName;
  /** the ratio of the ratio samplers (0 to 1) */
  samplerArg: number;
  /** how long finished spans wait to be exported in one batch, ms */
  scheduleDelayMs: number;
  maxQueueSize: number;
  maxBatchSize: number;
  exportTimeoutMs: number;
  /** spans exported, and spans lost (`queue_full`, `export_failed`) */
  counted(outcome: 'exported' | 'queue_full' | 'export_failed', count: number): void;
  warn(message: string): void;
  info(message: string): void;
}

/** How long the spans left at shutdown may take to leave, at most. */
const LAST_EXPORT_MS = 3_000;

/** OTEL_EXPORTER_OTLP_HEADERS as the standard writes it: `key=value` pairs split by commas, values URL-encoded. */
export function otlpHeaders(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      out[pair.slice(0, at).trim().toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // a value that is not URL-encoded text is left out, as the standard's SDKs do
    }
  }
  return out;
}

/**
 * Tracing over OTLP/HTTP when an endpoint is set, else none: without one, no SDK module is even
 * loaded (a request pays one check). Spans are made through the OpenTelemetry API (its context and
 * propagation) by a lean tracer with the SDK's samplers (`lean-tracer.ts`); the project's own
 * processor batches them and encodes them straight from the finished spans, a slice per turn of the
 * event loop, and sends one batch at a time (`otlp-span-processor.ts`).
 */
export async function startTracing(opts: TracingOptions): Promise<Tracing | undefined> {
  const url = opts.tracesEndpoint ?? (opts.endpoint === undefined ? undefined : `${opts.endpoint.replace(/\/+$/, '')}/v1/traces`);
  if (url === undefined) return undefined;
  const [sdk, { resourceFromAttributes }, { Tracing }, { LeanTracer }, { OtlpSpanProcessor }, { spanBatchEncoder }, { postForStatus }, { Agent }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/resources'),
      import('./tracing.js'),
      import('./lean-tracer.js'),
      import('./otlp-span-processor.js'),
      import('./otlp-span-encoding.js'),
      import('../upstream/post-for-status.js'),
      import('undici'),
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
  // one connection: batches leave one at a time
  const dispatcher = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
  const headers = otlpHeaders(opts.headers);
  const processor = new OtlpSpanProcessor({
    encoder: spanBatchEncoder(opts.protocol),
    send: (body, contentType, signal) => postForStatus(url, body, { headers: { ...headers, 'content-type': contentType }, signal, dispatcher }),
    maxQueueSize: opts.maxQueueSize,
    maxBatchSize: opts.maxBatchSize,
    scheduleDelayMs: opts.scheduleDelayMs,
    sliceSize: 64,
    timeoutMs: opts.exportTimeoutMs,
    exported: (n) => opts.counted('exported', n),
    dropped: (n, why) => opts.counted(why, n),
    warn: opts.warn,
    info: opts.info,
  });
  const resource = resourceFromAttributes({ 'service.name': opts.serviceName, 'service.version': opts.serviceVersion });
  const tracer = new LeanTracer(samplers[opts.sampler](), processor, resource, { name: 'v2proxy', version: opts.serviceVersion });
  return new Tracing(tracer, {
    shutdown: async () => {
      // the last spans get a few seconds (a collector that is there takes them in milliseconds), then the pool goes
      const deadline = setTimeout(() => processor.abort(), Math.min(opts.exportTimeoutMs, LAST_EXPORT_MS)).unref();
      try {
        await processor.shutdown();
      } finally {
        clearTimeout(deadline);
        await dispatcher.close();
      }
    },
  });
}
