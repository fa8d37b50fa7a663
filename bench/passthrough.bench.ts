// Passthrough overhead: the same v1 list call made straight to the emulator and through the proxy,
// side by side in one run, so the ratio holds on a noisy machine. Bounded: fixed request counts.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';
import { demo } from '../src/commands/demo.js';
import { loadEmulatorSettings, loadSettings } from '../src/config/load-settings.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = 3;

interface Run {
  seconds: number;
  p50: number;
  p99: number;
}

async function load(origin: string, path: string, token: string): Promise<Run> {
  const pool = new Pool(origin, { connections: CONCURRENCY });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < REQUESTS) {
      next += 1;
      const t0 = performance.now();
      const res = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { seconds, p50: at(0.5), p99: at(0.99) };
}

const best = (runs: Run[]) => runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));

async function main(): Promise<void> {
  const loaded = loadSettings({ PORT: '0', LOG_LEVEL: 'silent' });
  const emulator = loadEmulatorSettings({ LOG_LEVEL: 'silent' });
  if (!loaded.ok || !emulator.ok) throw new Error('bad settings');
  const proxy = await demo(loaded.settings, emulator.settings);
  const emu = proxy.emulator;
  const path = `/iam/v1/groups?uidp.descendants_of=${emu.demoOrg ?? ''}`;
  const lag = monitorEventLoopDelay();
  lag.enable();
  const direct: Run[] = [];
  const proxied: Run[] = [];
  // warm-up, then alternate so drift on a shared machine hits both sides alike
  await load(emu.url, path, emu.devToken);
  await load(proxy.url, path, emu.devToken);
  for (let i = 0; i < ROUNDS; i += 1) {
    direct.push(await load(emu.url, path, emu.devToken));
    proxied.push(await load(proxy.url, path, emu.devToken));
  }
  lag.disable();
  await proxy.close();
  const d = best(direct);
  const p = best(proxied);
  const row = (name: string, r: Run) =>
    `${name.padEnd(22)} ${(REQUESTS / r.seconds).toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms`;
  console.log(`v1 passthrough: ${REQUESTS} GET ${path.split('?')[0]} × best of ${ROUNDS}, concurrency ${CONCURRENCY} (proxy and emulator share one process)`);
  console.log(row('direct to emulator', d));
  console.log(row('through the proxy', p));
  console.log(`ratio proxy/direct time: ${(p.seconds / d.seconds).toFixed(2)}   added p50 latency: ${(p.p50 - d.p50).toFixed(2)} ms`);
  console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB   event-loop delay p99: ${(lag.percentile(99) / 1e6).toFixed(1)} ms`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
