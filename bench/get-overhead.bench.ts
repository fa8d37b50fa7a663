// Translated Get: what v2proxy adds over the direct v1 call, next to a minimal hand-written proxy
// (bench/support/minimal-proxy.ts: node:http + an undici Pool, the same translation, byte-identical
// answers). The emulator, v2proxy and the minimal proxy each run in their own process; this one
// sends open-loop load (each request at its scheduled time, timed from it) at half of v2proxy's
// measured capacity, in one-second slices interleaved direct / minimal / minimal on fastify / v2proxy,
// several rounds. The same minimal proxy as a fastify route (minimal-fastify-proxy.ts) shows what the
// framework alone adds: the floor of any proxy built on this stack.
// CPU per request of each proxy comes from its process's /proc stat: over the same slices, and again
// at full load (closed loop, 8 connections, interleaved blocks of requests), where fewer idle wake-ups
// are counted per request and the figure varies less from run to run on a shared machine. Last, the
// same Get as a gRPC call over h2c (Connect's gRPC transport, as the platform SDK calls it) against
// the REST Get on v2proxy, CPU per call in interleaved blocks, beside the same pair on hand-written
// minimal proxies (minimal-grpc-proxy.ts: node:http2's stream API): the floor of gRPC on this runtime.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { cpuPerCall, grpcCaller, restCaller } from './support/call-load.js';
import { start, startV1Emulator } from './support/child-process.js';
import { median, quantile as q, range } from './support/figures.js';
import { cpuMs, TICK_MS } from './support/process-cpu.js';
import { HAVE_REDIS, RedisServer } from '../test/support/redis-server.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CPU_ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 6);
const CPU_REQUESTS = 3000;
const SLICES = Number(process.env.BENCH_SLICES ?? 4);
const TOKEN = 'bench-dev-token-0123456789';

async function closedLoop(origin: string, path: string, ms: number, concurrency: number): Promise<number> {
  const pool = new Pool(origin, { connections: concurrency });
  let done = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const res = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${TOKEN}` } });
        await res.body.dump();
        done += 1;
      }
    }),
  );
  await pool.close();
  return (done * 1000) / ms;
}

/** CPU per request (µs) of `pid` while `n` requests go out over 8 connections, each as soon as the last is answered. */
async function closedLoopCpu(pid: number, origin: string, path: string, n: number): Promise<number> {
  const pool = new Pool(origin, { connections: 8 });
  const perCall = await cpuPerCall(
    pid,
    n,
    async () => {
      const res = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${TOKEN}` } });
      await res.body.dump();
    },
    8,
  );
  await pool.close();
  return perCall;
}

async function slice(origin: string, path: string, rate: number): Promise<number[]> {
  const pool = new Pool(origin, { connections: 64 });
  const start = performance.now();
  const pending: Promise<number>[] = [];
  for (let i = 0; i < rate; i += 1) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${TOKEN}` } }).then(async (res) => {
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`${origin}${path}: ${res.statusCode}`);
        return performance.now() - due;
      }),
    );
  }
  const latencies = await Promise.all(pending);
  await pool.close();
  return latencies;
}

const emulator = await startV1Emulator(TOKEN);
const { v1Url, org } = emulator;
const v2proxy = await start(fileURLToPath(new URL('./support/start-v2proxy.ts', import.meta.url)), [], { V1_BASE_URL: v1Url }, /v2proxy listening on (\S+)/);
const minimal = await start(
  fileURLToPath(new URL('./support/minimal-proxy.ts', import.meta.url)),
  [],
  { V1_BASE_URL: v1Url },
  /minimal proxy listening on (\S+)/,
);
const onFastify = await start(
  fileURLToPath(new URL('./support/minimal-fastify-proxy.ts', import.meta.url)),
  [],
  { V1_BASE_URL: v1Url },
  /minimal fastify proxy listening on (\S+)/,
);
const minimalGrpc = await start(
  fileURLToPath(new URL('./support/minimal-grpc-proxy.ts', import.meta.url)),
  [],
  { V1_BASE_URL: v1Url },
  /minimal gRPC proxy listening on (\S+)/,
);
const [, minimalGrpcUrl] = minimalGrpc.match as unknown as [string, string];
const [, proxyUrl] = v2proxy.match as unknown as [string, string];
const [, minimalUrl] = minimal.match as unknown as [string, string];
const [, fastifyUrl] = onFastify.match as unknown as [string, string];
try {
  const ids = (await (await fetch(`${v1Url}/iam/v1/identities?uidp.descendants_of=${org}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
    items: { id: string }[];
  };
  const uid = ids.items[0]?.id as string;
  const v1Path = `/iam/v1/identities?id=${uid}`;
  const v2Path = `/iam/v2beta1/identities/${uid}`;
  const bodies = await Promise.all(
    [proxyUrl, minimalUrl, fastifyUrl].map(async (u) => (await fetch(`${u}${v2Path}`, { headers: { authorization: `Bearer ${TOKEN}` } })).text()),
  );
  if (bodies[0] !== bodies[1] || bodies[0] !== bodies[2]) throw new Error(`answers differ:\n${bodies.join('\n')}`);

  await closedLoop(proxyUrl, v2Path, 1000, 16); // warm-up
  const capacity = await closedLoop(proxyUrl, v2Path, 2000, 16);
  const rate = Math.max(50, Math.round(capacity / 2));
  console.log(`translated GET /iam/v2beta1/identities/{uid}; v2proxy capacity ${capacity.toFixed(0)} req/s closed loop, so open loop at ${rate}/s;`);
  console.log(
    `${ROUNDS} rounds of ${SLICES} interleaved one-second slices per side; emulator, v2proxy, the two minimal proxies and load generator each in their own process\n`,
  );
  // in the order their slices follow the direct one; the minimal proxy is what ratios are taken against
  const proxies = [
    { pid: minimal.child.pid as number, url: minimalUrl },
    { pid: onFastify.child.pid as number, url: fastifyUrl },
    { pid: v2proxy.child.pid as number, url: proxyUrl },
  ];
  const [MIN, FASTIFY, V2] = [0, 1, 2];
  const COLUMNS = [V2, MIN, FASTIFY];
  for (const [o, p] of [[v1Url, v1Path] as const, ...proxies.map((x) => [x.url, v2Path] as const)]) await slice(o, p, rate);
  /** per round, per proxy: added p50 and p99 over direct v1 (ms), and CPU over the round's slices (ms) */
  const rounds: { p50: number; p99: number; cpuMs: number }[][] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    const direct: number[] = [];
    const via = proxies.map(() => ({ latencies: [] as number[], cpuMs: 0 }));
    for (let s = 0; s < SLICES; s += 1) {
      direct.push(...(await slice(v1Url, v1Path, rate)));
      for (const [i, x] of proxies.entries()) {
        const side = via[i] as (typeof via)[number];
        const c0 = cpuMs(x.pid);
        side.latencies.push(...(await slice(x.url, v2Path, rate)));
        side.cpuMs += cpuMs(x.pid) - c0;
      }
    }
    rounds.push(via.map((v) => ({ p50: median(v.latencies) - median(direct), p99: q(v.latencies, 0.99) - q(direct, 0.99), cpuMs: v.cpuMs })));
  }
  /** CPU per request at full load (µs), per proxy, one value per block */
  const full: number[][] = proxies.map(() => []);
  for (let r = 0; r <= CPU_ROUNDS; r += 1) {
    // the first round warms them up and is not counted
    for (const i of COLUMNS) {
      const x = proxies[i] as (typeof proxies)[number];
      const v = await closedLoopCpu(x.pid, x.url, v2Path, CPU_REQUESTS);
      if (r > 0) full[i]?.push(v);
    }
  }
  const n = SLICES * rate;
  const column = (i: number) => rounds.map((round) => round[i] as { p50: number; p99: number; cpuMs: number });
  const perColumn = (cell: (i: number) => string) => COLUMNS.map(cell).join(' | ');
  // a side whose CPU over a round stayed under one tick is counted as one tick
  const halfRatio = (i: number) => range(column(i).map((x, r) => x.cpuMs / Math.max(column(MIN)[r]?.cpuMs as number, TICK_MS)));
  const fullRatio = (i: number, of: number) => (full[i] as number[]).map((v, b) => v / (full[of]?.[b] as number));
  const withMedian = (xs: number[]) => `${range(xs)} (${median(xs).toFixed(2)})`;
  console.log('| figure | target | v2proxy (range over rounds) | minimal proxy | minimal on fastify |');
  console.log('|---|---|---|---|---|');
  console.log(
    `| added p50 over direct v1 (ms) | ≤ 0.5 | ${perColumn((i) =>
      range(
        column(i).map((x) => x.p50),
        3,
      ),
    )} |`,
  );
  console.log(
    `| added p50 / minimal's (median) | ≤ 1.5 | ${perColumn((i) => (i === MIN ? '1' : withMedian(column(i).map((x, r) => x.p50 / (column(MIN)[r]?.p50 as number)))))} |`,
  );
  console.log(`| added p99 over direct v1 (ms) | ≤ 5 | ${perColumn((i) => range(column(i).map((x) => x.p99)))} |`);
  console.log(
    `| CPU per request at half capacity (µs) | | ${perColumn((i) =>
      range(
        column(i).map((x) => (x.cpuMs * 1000) / n),
        0,
      ),
    )} |`,
  );
  console.log(`| CPU per request at half capacity, / minimal | ≤ 1.5 | ${perColumn((i) => (i === MIN ? '1' : halfRatio(i)))} |`);
  console.log(
    `| CPU per request at full load (µs; ${CPU_ROUNDS} interleaved blocks of ${CPU_REQUESTS}) | | ${perColumn((i) => range(full[i] as number[], 0))} |`,
  );
  console.log(`| CPU per request at full load, / minimal (median) | ≤ 1.5 | ${perColumn((i) => (i === MIN ? '1' : withMedian(fullRatio(i, MIN))))} |`);
  console.log(`| CPU per request at full load, v2proxy / minimal on fastify (median) | | ${withMedian(fullRatio(V2, FASTIFY))} | | 1 |`);

  // the same Get as a gRPC call over h2c (the platform SDK's transport), against the REST Get, on
  // v2proxy; beside them the gRPC floor of this runtime: a hand-written node:http2 gRPC server making
  // the same v1 call, against the minimal REST proxy
  const grpcCall = (url: string) => grpcCaller(url, uid, TOKEN).call;
  const restCall = (url: string) => restCaller(url, v2Path, TOKEN).call;
  const sides = [
    { name: 'v2proxy gRPC', pid: v2proxy.child.pid as number, call: grpcCall(proxyUrl) },
    { name: 'v2proxy REST', pid: v2proxy.child.pid as number, call: restCall(proxyUrl) },
    { name: 'minimal gRPC', pid: minimalGrpc.child.pid as number, call: grpcCall(minimalGrpcUrl) },
    { name: 'minimal REST', pid: minimal.child.pid as number, call: restCall(minimalUrl) },
  ];
  const perCall = sides.map(() => [] as number[]);
  for (let r = 0; r <= CPU_ROUNDS; r += 1) {
    for (const [i, side] of sides.entries()) {
      const v = await cpuPerCall(side.pid, CPU_REQUESTS, side.call);
      if (r > 0) perCall[i]?.push(v);
    }
  }
  const [GRPC, REST, MIN_GRPC, MIN_REST] = [0, 1, 2, 3];
  const ratio = (a: number, b: number) => withMedian((perCall[a] as number[]).map((x, k) => x / (perCall[b]?.[k] as number)));
  console.log(
    `\nthe same Get over gRPC (GetIdentity, h2c, one HTTP/2 connection, 4 calls at a time) and over REST (4 connections), on v2proxy, and on the hand-written minimal proxies (minimal-grpc-proxy.ts: node:http2's stream API, the same v1 call and translation); ${CPU_ROUNDS} interleaved blocks of ${CPU_REQUESTS}\n`,
  );
  console.log(`| figure | target | ${sides.map((x) => x.name).join(' | ')} |`);
  console.log(`|---|---|${sides.map(() => '---|').join('')}`);
  console.log(`| CPU per call (µs) | | ${perCall.map((xs) => range(xs, 0)).join(' | ')} |`);
  console.log(`| CPU per call, gRPC / REST of the same proxy (median) | ≤ 1.5 | ${ratio(GRPC, REST)} | 1 | ${ratio(MIN_GRPC, MIN_REST)} | 1 |`);
  console.log(`| CPU per call / v2proxy REST's (median) | | ${ratio(GRPC, REST)} | 1 | ${ratio(MIN_GRPC, REST)} | ${ratio(MIN_REST, REST)} |`);
  console.log(`| CPU per call, v2proxy gRPC / minimal gRPC (median) | | ${ratio(GRPC, MIN_GRPC)} | | 1 | |`);

  // the same v2proxy again with the fleet's parts on: Redis (REDIS_URL) and a progressive route on the
  // identity Get (its first step serves every request by translation, and every request is counted
  // for the analysis, sent to Redis every 250 ms, judged every second by the lease holder)
  if (!HAVE_REDIS) console.log('\nredis-server is not installed: the figures with the fleet on are left out');
  else {
    const redis = await RedisServer.start();
    const dir = mkdtempSync(join(tmpdir(), 'v2proxy-bench-fleet-'));
    const rolloutFile = join(dir, 'rollout.yaml');
    writeFileSync(
      rolloutFile,
      'routes:\n  - resource: identities\n    operations: [get]\n    steps:\n      - native: 0\n        pause: 1h\n      - native: 100\n    analysis:\n      interval: 1s\n      minRequests: 1\n',
    );
    // a native backend is named (the progressive route needs one) but never called at its first step
    const fleet = await start(
      fileURLToPath(new URL('./support/start-v2proxy.ts', import.meta.url)),
      [],
      { V1_BASE_URL: v1Url, V2_BASE_URL: v1Url, REDIS_URL: redis.url, ROLLOUT_FILE: rolloutFile, ADMIN_TOKEN: 'bench-admin-token-0123' },
      /v2proxy listening on (\S+)/,
    );
    const [, fleetUrl] = fleet.match as unknown as [string, string];
    try {
      const v1PassPath = `/iam/v1/identities?id=${uid}`;
      const restOn = (url: string, path: string) => restCaller(url, path, TOKEN);
      const figures = [
        { name: 'translated Get, CPU per request (µs)', off: restOn(proxyUrl, v2Path), on: restOn(fleetUrl, v2Path) },
        { name: 'v1 passthrough, CPU per request (µs)', off: restOn(proxyUrl, v1PassPath), on: restOn(fleetUrl, v1PassPath) },
        {
          name: 'gRPC Get, CPU per call (µs)',
          off: grpcCaller(proxyUrl, uid, TOKEN),
          on: grpcCaller(fleetUrl, uid, TOKEN),
        },
      ];
      const cpu = figures.map(() => ({ off: [] as number[], on: [] as number[] }));
      const p50 = { off: [] as number[], on: [] as number[] };
      for (let r = 0; r <= CPU_ROUNDS; r += 1) {
        for (const [i, f] of figures.entries()) {
          for (const side of ['off', 'on'] as const) {
            f[side].latencies.length = 0;
            const v = await cpuPerCall((side === 'off' ? v2proxy : fleet).child.pid as number, CPU_REQUESTS, f[side].call);
            if (r === 0) continue;
            cpu[i]?.[side].push(v);
            if (i === 0) p50[side].push(median(f[side].latencies));
          }
        }
      }
      const state = (await (await fetch(`${fleetUrl}/admin/rollout`, { headers: { authorization: 'Bearer bench-admin-token-0123' } })).json()) as unknown;
      const judged = JSON.stringify(state).match(/"intervals?":\s*\[/) !== null;
      console.log(
        `\nthe same v2proxy with the fleet on (REDIS_URL, and a progressive route on the identity Get: every request counted, sent to Redis, judged each second) and off, side by side; ${CPU_ROUNDS} interleaved blocks of ${CPU_REQUESTS}, 4 at a time${judged ? '' : ' (no interval was judged: check the analysis)'}\n`,
      );
      console.log('| figure | target | fleet off | fleet on | on / off (median) |');
      console.log('|---|---|---|---|---|');
      for (const [i, f] of figures.entries()) {
        const c = cpu[i] as { off: number[]; on: number[] };
        console.log(`| ${f.name} | on ≤ off | ${range(c.off, 0)} | ${range(c.on, 0)} | ${withMedian(c.on.map((x, k) => x / (c.off[k] as number)))} |`);
      }
      console.log(
        `| translated Get, p50 at 4 at a time (ms) | on ≤ off | ${range(p50.off, 3)} | ${range(p50.on, 3)} | ${withMedian(p50.on.map((x, k) => x / (p50.off[k] as number)))} |`,
      );
    } finally {
      fleet.child.kill();
      await redis.stop();
    }
  }
} finally {
  for (const p of [v2proxy, minimal, minimalGrpc, onFastify, emulator]) p.child.kill();
}
