// Flaky v1: the figures of the upstream client's retries and circuit breaker, with the default
// settings, over real sockets. The emulator resets 20 % of v1 reads (its fault rules); a TCP fault
// hop in front of it refuses or hangs every connection for 2 s and then comes back.
import { serve } from '../src/commands/serve.js';
import { loadSettings } from '../src/config/load-settings.js';
import { startHarness } from '../test/support/emulator-harness.js';
import { A, A_TEAM, TOKENS } from '../test/support/fixtures.js';
import { outage, readMany } from '../test/support/flaky-v1-figures.js';
import { TcpFaultProxy } from '../test/support/tcp-fault-proxy.js';
import { range } from './support/figures.js';

const READS = Number(process.env.BENCH_FLAKY_READS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const h = await startHarness();
const fault = await TcpFaultProxy.start(h.url);
const loaded = loadSettings({ PORT: '0', LOG_LEVEL: 'silent', V1_BASE_URL: fault.url, LIST_CACHE_TTL_MS: '0' });
if (!loaded.ok) throw new Error(loaded.error);
const proxy = await serve(loaded.settings);
const paths = [`/iam/v2beta1/groups/${A}`, `/iam/v2beta1/groups/${A_TEAM}`, `/iam/v2beta1/groups?parent=${A}`];

const success: number[] = [];
const refuse = { slowest: [] as number[], recovery: [] as number[] };
const hang = { slowest: [] as number[], recovery: [] as number[] };
for (let round = 0; round < ROUNDS; round += 1) {
  await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1', method: 'GET', rate: 0.2, reset: true }] } });
  const { ok } = await readMany(proxy.url, TOKENS.alice, paths, READS, 16);
  success.push((100 * ok) / READS);
  await h.dev('DELETE', '/__emulator/faults');
  for (const [mode, into] of [
    ['refuse', refuse],
    ['hang', hang],
  ] as const) {
    const f = await outage(fault, mode, proxy.url, TOKENS.alice, paths[0] as string, { everyMs: 10, downMs: 2_000, upMs: 1_500 });
    into.slowest.push(f.slowestFailureMs);
    into.recovery.push(f.recoveryMs);
  }
}
await proxy.close();
await fault.close();
await h.close();

console.log(`\nFlaky v1, default settings, ${ROUNDS} rounds (ranges over rounds)\n`);
console.log('| figure | target | measured |');
console.log('|---|---|---|');
console.log(`| v2 reads that succeed with 20 % of v1 reads reset (${READS} reads, 16 at once) | ≥ 99.9 % | ${range(success, 3)} % |`);
console.log(`| slowest failed read while v1 refuses connections | ≤ 1000 ms | ${range(refuse.slowest, 0)} ms |`);
console.log(`| slowest failed read while v1 hangs | ≤ 1000 ms | ${range(hang.slowest, 0)} ms |`);
console.log(`| reads still failing after v1 is back (refused before) | ≤ 1000 ms | ${range(refuse.recovery, 0)} ms |`);
console.log(`| reads still failing after v1 is back (hung before) | ≤ 1000 ms | ${range(hang.recovery, 0)} ms |`);
