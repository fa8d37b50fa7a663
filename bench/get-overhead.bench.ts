// Translated Get: what v2proxy adds over the direct v1 call, next to a minimal hand-written proxy
// (bench/support/minimal-proxy.ts: node:http + an undici Pool, the same translation, byte-identical
// answers). The emulator, v2proxy and the minimal proxy each run in their own process; this one
// sends open-loop load (each request at its scheduled time, timed from it) at half of v2proxy's
// measured capacity, in one-second slices interleaved direct / minimal / minimal on fastify / v2proxy,
// several rounds. The same minimal proxy as a fastify route (minimal-fastify-proxy.ts) shows what the
// framework alone adds: the floor of any proxy built on this stack.
// CPU per request of each proxy comes from its process's /proc stat: over the same slices, and again
// at full load (closed loop, 8 connections, interleaved blocks of requests), where fewer idle wake-ups
// are counted per request and the figure varies less from run to run on a shared machine.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { start, startV1Emulator } from './support/child-process.js';
import { median, quantile as q, range } from './support/figures.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CPU_ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 6);
const CPU_REQUESTS = 3000;
const SLICES = Number(process.env.BENCH_SLICES ?? 4);
const TOKEN = 'bench-dev-token-0123456789';
const TICK_MS = 10; // USER_HZ = 100 on Linux

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime + stime
}

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
  let left = n;
  const c0 = cpuMs(pid);
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (left > 0) {
        left -= 1;
        const res = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${TOKEN}` } });
        await res.body.dump();
      }
    }),
  );
  const used = cpuMs(pid) - c0;
  await pool.close();
  return (used * 1000) / n;
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
  const rounds: {
    addP50: number;
    addP99: number;
    minP50: number;
    minP99: number;
    fyP50: number;
    fyP99: number;
    cpuRatio: number;
    cpuV2: number;
    cpuMin: number;
    cpuFy: number;
  }[] = [];
  for (const [o, p] of [
    [v1Url, v1Path],
    [minimalUrl, v2Path],
    [fastifyUrl, v2Path],
    [proxyUrl, v2Path],
  ] as const)
    await slice(o, p, rate);
  for (let r = 0; r < ROUNDS; r += 1) {
    const direct: number[] = [];
    const viaMin: number[] = [];
    const viaV2: number[] = [];
    const viaFy: number[] = [];
    let cpuMin = 0;
    let cpuV2 = 0;
    let cpuFy = 0;
    for (let s = 0; s < SLICES; s += 1) {
      direct.push(...(await slice(v1Url, v1Path, rate)));
      const m0 = cpuMs(minimal.child.pid as number);
      viaMin.push(...(await slice(minimalUrl, v2Path, rate)));
      cpuMin += cpuMs(minimal.child.pid as number) - m0;
      const f0 = cpuMs(onFastify.child.pid as number);
      viaFy.push(...(await slice(fastifyUrl, v2Path, rate)));
      cpuFy += cpuMs(onFastify.child.pid as number) - f0;
      const p0 = cpuMs(v2proxy.child.pid as number);
      viaV2.push(...(await slice(proxyUrl, v2Path, rate)));
      cpuV2 += cpuMs(v2proxy.child.pid as number) - p0;
    }
    const n = SLICES * rate;
    rounds.push({
      addP50: median(viaV2) - median(direct),
      addP99: q(viaV2, 0.99) - q(direct, 0.99),
      minP50: median(viaMin) - median(direct),
      minP99: q(viaMin, 0.99) - q(direct, 0.99),
      fyP50: median(viaFy) - median(direct),
      fyP99: q(viaFy, 0.99) - q(direct, 0.99),
      cpuV2: (cpuV2 * 1000) / n,
      cpuMin: (cpuMin * 1000) / n,
      cpuFy: (cpuFy * 1000) / n,
      cpuRatio: cpuV2 / Math.max(cpuMin, TICK_MS),
    });
  }
  const fullV2: number[] = [];
  const fullMin: number[] = [];
  const fullFy: number[] = [];
  for (let r = 0; r <= CPU_ROUNDS; r += 1) {
    // the first round warms them up and is not counted
    const v2 = await closedLoopCpu(v2proxy.child.pid as number, proxyUrl, v2Path, CPU_REQUESTS);
    const min = await closedLoopCpu(minimal.child.pid as number, minimalUrl, v2Path, CPU_REQUESTS);
    const fy = await closedLoopCpu(onFastify.child.pid as number, fastifyUrl, v2Path, CPU_REQUESTS);
    if (r === 0) continue;
    fullV2.push(v2);
    fullMin.push(min);
    fullFy.push(fy);
  }
  const fullRatio = fullV2.map((v, i) => v / (fullMin[i] as number));
  const fyRatio = fullFy.map((v, i) => v / (fullMin[i] as number));
  const overFy = fullV2.map((v, i) => v / (fullFy[i] as number));
  console.log('| figure | target | v2proxy (range over rounds) | minimal proxy | minimal on fastify |');
  console.log('|---|---|---|---|---|');
  console.log(
    `| added p50 over direct v1 (ms) | ≤ 0.5 | ${range(
      rounds.map((x) => x.addP50),
      3,
    )} | ${range(
      rounds.map((x) => x.minP50),
      3,
    )} | ${range(
      rounds.map((x) => x.fyP50),
      3,
    )} |`,
  );
  console.log(
    `| added p99 over direct v1 (ms) | ≤ 5 | ${range(rounds.map((x) => x.addP99))} | ${range(rounds.map((x) => x.minP99))} | ${range(rounds.map((x) => x.fyP99))} |`,
  );
  console.log(
    `| CPU per request at half capacity (µs) | | ${range(
      rounds.map((x) => x.cpuV2),
      0,
    )} | ${range(
      rounds.map((x) => x.cpuMin),
      0,
    )} | ${range(
      rounds.map((x) => x.cpuFy),
      0,
    )} |`,
  );
  console.log(
    `| CPU per request at half capacity, / minimal | ≤ 1.3 | ${range(rounds.map((x) => x.cpuRatio))} | 1 | ${range(rounds.map((x) => x.cpuFy / Math.max(x.cpuMin, 1)))} |`,
  );
  console.log(
    `| CPU per request at full load (µs; ${CPU_ROUNDS} interleaved blocks of ${CPU_REQUESTS}) | | ${range(fullV2, 0)} | ${range(fullMin, 0)} | ${range(fullFy, 0)} |`,
  );
  console.log(
    `| CPU per request at full load, / minimal (median) | ≤ 1.3 | ${range(fullRatio)} (${median(fullRatio).toFixed(2)}) | 1 | ${range(fyRatio)} (${median(fyRatio).toFixed(2)}) |`,
  );
  console.log(`| CPU per request at full load, v2proxy / minimal on fastify (median) | | ${range(overFy)} (${median(overFy).toFixed(2)}) | | 1 |`);
} finally {
  for (const p of [v2proxy, minimal, onFastify, emulator]) p.child.kill();
}
