// What one span costs, in isolation: v2proxy's span path as it ships (the SDK's tracer making the
// spans; the project's processor batching them and encoding OTLP straight from the finished spans)
// next to the OpenTelemetry SDK's own path (its BatchSpanProcessor and OTLP/HTTP exporters), in one
// process, interleaved rounds. Each round ends 10,240 server spans of ten attributes (what a
// translated Get's server span carries), then flushes them to a collector in another process on
// loopback: CPU per span to create and end it, and to encode and send it. Then the event loop's
// longest delay while spans are made at full speed and exported as they go (a timer of 1 ms
// resolution): what export can hold up a request by.
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ROOT_CONTEXT, SpanKind, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BatchSpanProcessor, type SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { Agent, request } from 'undici';
import { median, range } from './support/figures.js';

const ROUNDS = Number(process.env.BENCH_SPAN_ROUNDS ?? 8);
const SPANS = 10_240;
const LOAD_MS = 500;

const dist = (file: string) => pathToFileURL(fileURLToPath(new URL(`../dist/${file}`, import.meta.url))).href;
const { OtlpSpanProcessor }: typeof import('../src/telemetry/otlp-span-processor.js') = await import(dist('telemetry/otlp-span-processor.js'));
const { spanBatchEncoder }: typeof import('../src/telemetry/otlp-span-encoding.js') = await import(dist('telemetry/otlp-span-encoding.js'));
const { LeanTracer }: typeof import('../src/telemetry/lean-tracer.js') = await import(dist('telemetry/lean-tracer.js'));

// the collector: its own process, so its CPU is not counted; it reads each export whole
const collector = spawn(
  process.execPath,
  [
    '-e',
    `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.writeHead(200, { 'content-type': q.headers['content-type'] }).end()); }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const port = await new Promise<string>((resolve) => collector.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())));
const url = `http://127.0.0.1:${port}/v1/traces`;

type Path = 'v2proxy protobuf' | 'v2proxy JSON' | 'SDK protobuf' | 'SDK JSON';
const PATHS: Path[] = ['v2proxy protobuf', 'SDK protobuf', 'v2proxy JSON', 'SDK JSON'];

// the SDK's processors and v2proxy's share these
type Processor = { onEnd(span: never): void; forceFlush(): Promise<void>; shutdown(): Promise<void> };
const NONE: SpanProcessor = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };

function processorOf(path: Path, dispatcher: Agent): Processor {
  const batch = { maxQueueSize: SPANS * 2, maxExportBatchSize: 512, scheduledDelayMillis: 200 };
  if (path === 'SDK protobuf') return new BatchSpanProcessor({ exporter: new ProtoExporter({ url }), ...batch });
  if (path === 'SDK JSON') return new BatchSpanProcessor({ exporter: new JsonExporter({ url }), ...batch });
  return new OtlpSpanProcessor({
    encoder: spanBatchEncoder(path === 'v2proxy JSON' ? 'http/json' : 'http/protobuf'),
    async send(body, contentType, signal) {
      const res = await request(url, { method: 'POST', body, headers: { 'content-type': contentType }, dispatcher, signal });
      await res.body.dump();
      return res.statusCode;
    },
    maxQueueSize: SPANS * 2,
    maxBatchSize: 512,
    scheduleDelayMs: 200,
    sliceSize: 64,
    timeoutMs: 30_000,
    exported: () => {},
    dropped: (n) => {
      lost += n;
    },
    warn: () => {},
    info: () => {},
  });
}

const resource = resourceFromAttributes({ 'service.name': 'v2proxy', 'service.version': '1.0.0' });

/** The path's tracer over `processor`: v2proxy's lean tracer, or the SDK's own. */
function tracerOf(path: Path, processor: Processor) {
  if (path.startsWith('v2proxy')) {
    const tracer = new LeanTracer(new AlwaysOnSampler(), processor as never, resource, { name: 'v2proxy', version: '1.0.0' });
    return { tracer, flush: () => processor.forceFlush(), close: () => processor.shutdown() };
  }
  const provider = new TracerProvider({ resource, sampler: new AlwaysOnSampler(), spanProcessors: [processor as SpanProcessor] });
  return { tracer: provider.getTracer('v2proxy', '1.0.0'), flush: () => provider.forceFlush(), close: () => provider.shutdown() };
}

/** One request's server span, as the proxy makes it. */
function serverSpan(tracer: Tracer, i: number): void {
  const span = tracer.startSpan(
    'GET /iam/v2beta1/identities/{uid}',
    {
      kind: SpanKind.SERVER,
      startTime: Date.now(),
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/iam/v2beta1/identities/{uid}',
        'url.path': `/iam/v2beta1/identities/${(1e15 + i).toString(16)}`,
      },
    },
    ROOT_CONTEXT,
  );
  span.setAttributes({
    'http.response.status_code': 200,
    'v2proxy.outcome': 'answered',
    'v2proxy.side': 'translate',
    'v2proxy.decision': 'no-route',
    'v2proxy.resource': 'identities',
    'server.address': '127.0.0.1',
    'server.port': 8080,
  });
  span.end();
}

let lost = 0;
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

const figures = () => ({ 'v2proxy protobuf': [] as number[], 'v2proxy JSON': [] as number[], 'SDK protobuf': [] as number[], 'SDK JSON': [] as number[] });
const create = figures();
const allTold = figures();
const delay = figures();

/** CPU per span of `SPANS` spans made 64 a turn (export runs between turns), flushed at the end. */
async function perSpan(t: ReturnType<typeof tracerOf>): Promise<number> {
  const t0 = cpu();
  for (let i = 0; i < SPANS; i += 1) {
    serverSpan(t.tracer, i);
    if (i % 64 === 63) await nextTurn();
  }
  await t.flush();
  return (cpu() - t0) / SPANS;
}

try {
  // the first round warms every path up and is not counted
  for (let r = 0; r <= ROUNDS; r += 1) {
    const order = r % 2 === 0 ? PATHS : [...PATHS].reverse();
    for (const path of order) {
      // making and ending spans alone (a processor that keeps nothing)
      const bare = tracerOf(path, NONE);
      const made = await perSpan(bare);
      const dispatcher = new Agent({ connections: 1 });
      const t = tracerOf(path, processorOf(path, dispatcher));
      const whole = await perSpan(t);
      // under load: 20,000 spans a second (a busy replica's 10,000 requests), two a turn, exported as they go
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      const from = performance.now();
      let i = 0;
      while (performance.now() - from < LOAD_MS) {
        serverSpan(t.tracer, i++);
        serverSpan(t.tracer, i++);
        if (i > (performance.now() - from) * 20) await sleep(1);
        else await nextTurn();
      }
      loop.disable();
      await t.close();
      await dispatcher.close();
      if (r === 0) continue;
      create[path].push(made);
      allTold[path].push(whole);
      delay[path].push(loop.max / 1e6);
    }
  }
  console.log(
    `${ROUNDS} rounds, interleaved; each: ${SPANS} server spans of ten attributes made 64 a turn and sent in batches of 512 to a collector in another process, then the same with a processor that keeps nothing, then ${LOAD_MS} ms at 20,000 spans a second${lost > 0 ? ` (v2proxy's queue dropped ${lost})` : ''}\n`,
  );
  console.log('| path | create and end (µs per span) | encode and send (µs per span) | all told (µs per span) | longest event-loop delay under load (ms) |');
  console.log('|---|---|---|---|---|');
  for (const path of PATHS) {
    const sent = allTold[path].map((w, k) => w - (create[path][k] as number));
    console.log(
      `| ${path} | ${range(create[path])} (${median(create[path]).toFixed(2)}) | ${range(sent)} (${median(sent).toFixed(2)}) | ${range(allTold[path])} (${median(allTold[path]).toFixed(2)}) | ${range(delay[path], 1)} (${median(delay[path]).toFixed(1)}) |`,
    );
  }
} finally {
  collector.kill();
}
