// What tracing costs a request: this checkout's v2proxy four times, each in its own process on one
// v1 emulator: tracing off (no OTLP endpoint, no SDK loaded); every request traced (ratio 1.0: a
// server span and a client span per v1 attempt, batch-exported over OTLP/HTTP protobuf to a
// collector that takes and drops them); a tenth traced (parentbased_traceidratio 0.1, the
// production setting the docs recommend); and none (an endpoint set, nothing sampled). CPU per call
// of each process from /proc in interleaved blocks (the order turned each round), 4 calls at a time,
// and the p50 of the same calls, for the translated Get and the gRPC Get; the spans the collector
// got are counted, so a run that exported nothing cannot pass for a cheap one.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Caller, cpuPerCall, grpcCaller, restCaller } from './support/call-load.js';
import { start, startV1Emulator } from './support/child-process.js';
import { median, range } from './support/figures.js';

const ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 6);
const REQUESTS = 3000;
const TOKEN = 'bench-dev-token-0123456789';

// a collector that reads each export whole and drops it
let exports = 0;
let exportedBytes = 0;
const collector = createServer((req, res) => {
  req.on('data', (c: Buffer) => {
    exportedBytes += c.length;
  });
  req.on('end', () => {
    exports += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
const collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;

const emulator = await startV1Emulator(TOKEN);
const { v1Url, org } = emulator;
const entry = fileURLToPath(new URL('./support/start-v2proxy.ts', import.meta.url));
const startProxy = async (env: Record<string, string>) => {
  const p = await start(entry, [], { V1_BASE_URL: v1Url, LOG_LEVEL: 'silent', ...env }, /v2proxy listening on (\S+)/);
  return { pid: p.child.pid as number, url: (p.match as unknown as [string, string])[1], child: p.child };
};
const traced = (sampler: string, ratio: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
  OTEL_TRACES_SAMPLER: sampler,
  OTEL_TRACES_SAMPLER_ARG: ratio,
  OTEL_BSP_SCHEDULE_DELAY: '200',
});
const MODES = ['off', 'all', 'tenth', 'none'] as const;
type Mode = (typeof MODES)[number];
const LABEL: Record<Mode, string> = {
  off: 'tracing off',
  all: 'every request (1.0)',
  tenth: 'a tenth (parent-based 0.1)',
  none: 'configured, none sampled',
};
const procs: Record<Mode, Awaited<ReturnType<typeof startProxy>>> = {
  off: await startProxy({}),
  all: await startProxy(traced('traceidratio', '1')),
  tenth: await startProxy(traced('parentbased_traceidratio', '0.1')),
  none: await startProxy(traced('traceidratio', '0')),
};
try {
  const ids = (await (await fetch(`${v1Url}/iam/v1/identities?uidp.descendants_of=${org}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
    items: { id: string }[];
  };
  const uid = ids.items[0]?.id as string;
  const figures: { name: string; caller: (url: string) => Caller }[] = [
    { name: 'translated Get', caller: (url) => restCaller(url, `/iam/v2beta1/identities/${uid}`, TOKEN) },
    { name: 'gRPC Get', caller: (url) => grpcCaller(url, uid, TOKEN) },
  ];
  const sides = figures.map((f) => Object.fromEntries(MODES.map((m) => [m, f.caller(procs[m].url)])) as Record<Mode, Caller>);
  const cpu = figures.map(() => Object.fromEntries(MODES.map((m) => [m, [] as number[]])) as Record<Mode, number[]>);
  const p50 = figures.map(() => Object.fromEntries(MODES.map((m) => [m, [] as number[]])) as Record<Mode, number[]>);
  // the first round warms every process up and is not counted
  for (let r = 0; r <= ROUNDS; r += 1) {
    for (const [i] of figures.entries()) {
      for (const mode of r % 2 === 0 ? MODES : [...MODES].reverse()) {
        const side = (sides[i] as Record<Mode, Caller>)[mode];
        side.latencies.length = 0;
        const v = await cpuPerCall(procs[mode].pid, REQUESTS, side.call);
        if (r === 0) continue;
        cpu[i]?.[mode].push(v);
        p50[i]?.[mode].push(median(side.latencies));
      }
    }
  }
  console.log(`tracing off against on, ${ROUNDS} rounds of interleaved blocks of ${REQUESTS} calls, 4 at a time, each setting in its own process`);
  console.log(`the collector took ${exports} exports (${(exportedBytes / 1e6).toFixed(1)} MB of spans)\n`);
  console.log('| figure | tracing | CPU per call (µs) | CPU / off (median) | p50 (ms) | p50 − off (median, ms) |');
  console.log('|---|---|---|---|---|---|');
  for (const [i, f] of figures.entries()) {
    const c = cpu[i] as Record<Mode, number[]>;
    const p = p50[i] as Record<Mode, number[]>;
    for (const mode of MODES) {
      const ratios = c[mode].map((x, k) => x / (c.off[k] as number));
      const added = p[mode].map((x, k) => x - (p.off[k] as number));
      const vsOff = mode === 'off' ? '' : `${range(ratios)} (${median(ratios).toFixed(2)})`;
      const later = mode === 'off' ? '' : `${range(added, 3)} (${median(added).toFixed(3)})`;
      console.log(`| ${f.name} | ${LABEL[mode]} | ${range(c[mode], 0)} | ${vsOff} | ${range(p[mode], 3)} | ${later} |`);
    }
  }
  if (exports === 0) {
    console.log('\nno spans reached the collector: the tracing side did not trace');
    process.exitCode = 1;
  }
} finally {
  for (const p of [...Object.values(procs), emulator]) p.child.kill();
  collector.close();
}
