// Shadow cost: the same translated Get through a proxy whose route shadows 100 % of reads to the
// native backend and through one that shadows none, against the direct v1 call, interleaved slices
// repeated in one run. The emulator (the backends) runs in its own process and both proxies in
// another, so backend work done for shadows is not charged to the proxy; the load comes from this
// one. Bounded: fixed request counts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { CLI, start, startV1Emulator } from './support/child-process.js';
import { median, range } from './support/figures.js';

const SLICES = Number(process.env.BENCH_SLICES ?? 6);
/** open-loop arrival rates, requests per second */
const RATES = (process.env.BENCH_RATES ?? '100,200,400').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/**
 * Latencies (ms) of one second of requests sent open-loop at `rate` per second: each is sent at its scheduled
 * time whether or not the previous one answered, and timed from that schedule (no coordinated omission).
 */
async function slice(origin: string, path: string, token: string, rate: number): Promise<number[]> {
  const pool = new Pool(origin, { connections: 64 });
  const interval = 1000 / rate;
  const SLICE = rate; // one second of traffic
  const start = performance.now();
  const pending: Promise<number>[] = [];
  for (let i = 0; i < SLICE; i += 1) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } }).then(async (res) => {
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode} from ${origin}${path}`);
        return performance.now() - due;
      }),
    );
  }
  const latencies = await Promise.all(pending);
  await pool.close();
  return latencies;
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const TOKEN = 'bench-dev-token-0123456789';
const ADMIN = 'bench-admin-token-0123';

function rollout(shadow: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-bench-')), 'rollout.yaml');
  writeFileSync(file, `routes:\n  - resource: groups\n    operations: [get]\n    shadow: ${shadow}\n`);
  return file;
}

async function main(): Promise<void> {
  // v1 and native v2 are different services in production: here two emulator processes with the
  // same (deterministic) demo data, so a shadow's native work does not queue the next v1 call
  const emulator = await startV1Emulator(TOKEN);
  const { v1Url, org } = emulator;
  const native = await start(CLI, ['emulator'], { DEV_TOKEN: TOKEN, LOG_LEVEL: 'silent' }, /native v2 emulator listening on (\S+)/);
  const [, v2Url] = native.match as unknown as [string, string];
  const proxies = await start(
    fileURLToPath(new URL('./support/start-proxies.ts', import.meta.url)),
    [rollout(0), rollout(100)],
    { V1_BASE_URL: v1Url, V2_BASE_URL: v2Url, SHADOW_MAX_INFLIGHT: '32' },
    /^\{"urls":\["([^"]+)","([^"]+)"\]\}$/m,
  );
  const [, quietUrl, shadowedUrl] = proxies.match as unknown as [string, string, string];
  const emu = { url: v1Url };
  const quiet = { url: quietUrl };
  const shadowed = { url: shadowedUrl };
  const v2 = `/iam/v2beta1/groups/${org}`;
  const v1 = `/iam/v1/groups?id=${org}`;
  const token = TOKEN;
  console.log(
    `shadow cost: translated GET /iam/v2beta1/groups/{uid}, open loop; per rate ${ROUNDS} rounds of ${SLICES} interleaved one-second slices per side`,
  );
  console.log('(proxies, v1 emulator, native emulator and this load generator on one machine, each in its own process)');
  console.log('');
  console.log('| rate | direct v1 p50 (ms) | added p50, shadow 0 (ms) | added p50, shadow 100 (ms) | ratio 100/0, median | range over rounds |');
  console.log('|---|---|---|---|---|---|');
  for (const rate of RATES) {
    const added0: number[] = [];
    const added100: number[] = [];
    const ratios: number[] = [];
    const floors: number[] = [];
    // warm-up, then slices interleaved (direct, shadow 0, shadow 100, …) so drift on a shared
    // machine hits every side alike; each round pools its slices' latencies per side
    for (const [origin, path] of [
      [emu.url, v1],
      [quiet.url, v2],
      [shadowed.url, v2],
    ] as const)
      await slice(origin, path, token, rate);
    for (let i = 0; i < ROUNDS; i += 1) {
      const direct: number[] = [];
      const a: number[] = [];
      const b: number[] = [];
      for (let j = 0; j < SLICES; j += 1) {
        direct.push(...(await slice(emu.url, v1, token, rate)));
        a.push(...(await slice(quiet.url, v2, token, rate)));
        b.push(...(await slice(shadowed.url, v2, token, rate)));
      }
      const floor = p50(direct);
      floors.push(floor);
      added0.push(p50(a) - floor);
      added100.push(p50(b) - floor);
      ratios.push((p50(b) - floor) / (p50(a) - floor));
    }
    console.log(
      `| ${rate}/s | ${median(floors).toFixed(3)} | ${median(added0).toFixed(3)} | ${median(added100).toFixed(3)} | ${median(ratios).toFixed(2)} | ${range(ratios)} |`,
    );
  }
  const report = (await fetch(`${shadowed.url}/admin/diff.json`, { headers: { authorization: `Bearer ${ADMIN}` } }).then((r) => r.json())) as {
    routes: { compared: number; skipped: number; errors: number }[];
  };
  proxies.child.kill();
  emulator.child.kill();
  native.child.kill();
  const [r] = report.routes;
  console.log(`shadows compared ${r?.compared ?? 0}, skipped ${r?.skipped ?? 0}, errors ${r?.errors ?? 0}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
