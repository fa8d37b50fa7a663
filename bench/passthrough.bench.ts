// v1 passthrough: a v1 group read made straight to the emulator, through v2proxy (every production
// feature on: retries, breaker, one log line per request, metrics), through a minimal Node
// passthrough (bench/support/minimal-passthrough.ts: node:http + an undici Pool) and through nginx
// (Debian's package, when installed). Each runs in its own process; this one sends closed-loop load
// (concurrency 4) in blocks of requests interleaved direct / minimal / nginx / v2proxy, several
// rounds: added p50 over the direct call, and CPU per request from each process's /proc stat.
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { start, startV1Emulator } from './support/child-process.js';
import { median, range } from './support/figures.js';
import { NGINX, startNginx } from './support/nginx.js';
import { cpuMs } from './support/process-cpu.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = 4;
const TOKEN = 'bench-dev-token-0123456789';

/** `n` requests over `CONCURRENCY` connections, each as soon as the last is answered: their latencies, and the CPU `pid` used meanwhile. */
async function block(origin: string, path: string, n: number, pid?: number): Promise<{ latencies: number[]; cpuMs: number }> {
  const pool = new Pool(origin, { connections: CONCURRENCY });
  const latencies: number[] = [];
  let left = n;
  const c0 = pid === undefined ? 0 : cpuMs(pid);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left > 0) {
        left -= 1;
        const t0 = performance.now();
        const res = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${TOKEN}` } });
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`${origin}${path}: ${res.statusCode}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const used = pid === undefined ? 0 : cpuMs(pid) - c0;
  await pool.close();
  return { latencies, cpuMs: used };
}

const emulator = await startV1Emulator(TOKEN);
const { v1Url, org } = emulator;
const v2proxy = await start(fileURLToPath(new URL('./support/start-v2proxy.ts', import.meta.url)), [], { V1_BASE_URL: v1Url }, /v2proxy listening on (\S+)/);
const minimal = await start(
  fileURLToPath(new URL('./support/minimal-passthrough.ts', import.meta.url)),
  [],
  { V1_BASE_URL: v1Url },
  /minimal passthrough listening on (\S+)/,
);
const nginx = await startNginx(v1Url);
try {
  const path = `/iam/v1/groups?id=${org}`;
  const sides = [
    { name: 'v2proxy', url: v2proxy.match[1] as string, pid: v2proxy.child.pid as number },
    { name: 'minimal Node passthrough', url: minimal.match[1] as string, pid: minimal.child.pid as number },
    ...(nginx ? [{ name: 'nginx', url: nginx.url, pid: nginx.workerPid }] : []),
  ];
  const bodies = await Promise.all(
    [v1Url, ...sides.map((s) => s.url)].map(async (u) => (await fetch(`${u}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })).text()),
  );
  if (bodies.some((b) => b !== bodies[0])) throw new Error(`answers differ:\n${bodies.join('\n')}`);
  console.log(
    `GET ${path.split('?')[0]}?id={uid}; closed loop at concurrency ${CONCURRENCY}, ${ROUNDS} rounds of ${REQUESTS} requests per side, interleaved; emulator, each proxy and this load generator in their own process`,
  );
  if (!nginx) console.log(`\n(nginx is not installed at ${NGINX}: its column is left out; \`apt-get install -y nginx\` adds it)`);
  // warm-up, not counted
  await block(v1Url, path, REQUESTS);
  for (const s of sides) await block(s.url, path, REQUESTS);
  const rounds: { p50: number; cpuUs: number }[][] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    const direct = median((await block(v1Url, path, REQUESTS)).latencies);
    const round: { p50: number; cpuUs: number }[] = [];
    for (const s of sides) {
      const b = await block(s.url, path, REQUESTS, s.pid);
      round.push({ p50: median(b.latencies) - direct, cpuUs: (b.cpuMs * 1000) / REQUESTS });
    }
    rounds.push(round);
  }
  const column = (i: number) => rounds.map((round) => round[i] as { p50: number; cpuUs: number });
  const ratio = (i: number, of: number, key: 'p50' | 'cpuUs') => column(i).map((x, r) => x[key] / (column(of)[r]?.[key] as number));
  const withMedian = (xs: number[]) => `${range(xs)} (${median(xs).toFixed(2)})`;
  const cells = (cell: (i: number) => string) => sides.map((_, i) => cell(i)).join(' | ');
  console.log(`\n| figure | target | ${sides.map((s) => s.name).join(' | ')} |`);
  console.log(`|---|---|${sides.map(() => '---|').join('')}`);
  console.log(
    `| added p50 over direct v1 (ms) | | ${cells((i) =>
      range(
        column(i).map((x) => x.p50),
        3,
      ),
    )} |`,
  );
  console.log(`| added p50 / minimal's (median) | ≤ 1.3 | ${cells((i) => (i === 1 ? '1' : withMedian(ratio(i, 1, 'p50'))))} |`);
  console.log(
    `| CPU per request (µs) | | ${cells((i) =>
      range(
        column(i).map((x) => x.cpuUs),
        0,
      ),
    )} |`,
  );
  console.log(`| CPU per request / minimal's (median) | ≤ 1.2 | ${cells((i) => (i === 1 ? '1' : withMedian(ratio(i, 1, 'cpuUs'))))} |`);
} finally {
  for (const p of [v2proxy, minimal, emulator]) p.child.kill();
  nginx?.stop();
}
