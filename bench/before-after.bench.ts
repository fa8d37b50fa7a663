// This checkout's v2proxy against another build of it, in one run: BENCH_BEFORE names a checkout of
// the code before a change (`git worktree add /tmp/before <commit>` with this checkout's node_modules
// linked into it), built here as this one is by `npm run bench`. Each build runs as its own process
// on one v1 emulator, twice: plain, and with the fleet's parts on (Redis, a native backend named,
// and a progressive route on the identity Get, so every request is decided by the rollout and
// counted for its analysis). CPU per request of each process from /proc, in interleaved blocks
// (before, now, before, now, …), 4 at a time, and the p50 of the same calls: what a change to the
// request path costs, side by side, whatever the machine does meanwhile.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HAVE_REDIS, RedisServer } from '../test/support/redis-server.js';
import { type Caller, cpuPerCall, grpcCaller, restCaller } from './support/call-load.js';
import { start, startV1Emulator } from './support/child-process.js';
import { buildCheckout } from './support/build-checkout.js';
import { median, range } from './support/figures.js';

const BEFORE = process.env.BENCH_BEFORE;
const ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 6);
const REQUESTS = 3000;
const TOKEN = 'bench-dev-token-0123456789';
const ADMIN = 'bench-admin-token-0123';

if (!BEFORE || !existsSync(join(resolve(BEFORE), 'tsconfig.build.json'))) {
  process.stderr.write('BENCH_BEFORE must name a checkout of v2proxy (with its node_modules) to compare this one with\n');
  process.exit(2);
}
if (!HAVE_REDIS) {
  process.stderr.write('redis-server is needed (the fleet side)\n');
  process.exit(2);
}

const emulator = await startV1Emulator(TOKEN);
const { v1Url, org } = emulator;
const redisBefore = await RedisServer.start();
const redisNow = await RedisServer.start();
const rolloutFile = join(mkdtempSync(join(tmpdir(), 'v2proxy-bench-before-')), 'rollout.yaml');
writeFileSync(
  rolloutFile,
  'routes:\n  - resource: identities\n    operations: [get]\n    steps:\n      - native: 0\n        pause: 1h\n      - native: 100\n    analysis:\n      interval: 1s\n      minRequests: 1\n',
);
buildCheckout(resolve(BEFORE));
const entry = fileURLToPath(new URL('./support/start-v2proxy.ts', import.meta.url));
// the same entry for both: it starts the build of the checkout it is named, this one by default
const builds = { before: { V2PROXY_CHECKOUT: resolve(BEFORE) }, now: {} };
const startBuild = async (build: Record<string, string>, env: Record<string, string>) => {
  const p = await start(entry, [], { V1_BASE_URL: v1Url, LOG_LEVEL: 'silent', ...build, ...env }, /v2proxy listening on (\S+)/);
  return { pid: p.child.pid as number, url: (p.match as unknown as [string, string])[1], child: p.child };
};
// each fleet side on a Redis of its own: the two builds keep their control state under other keys, and must not share counters
const fleetEnv = (redisUrl: string) => ({ V2_BASE_URL: v1Url, REDIS_URL: redisUrl, ROLLOUT_FILE: rolloutFile, ADMIN_TOKEN: ADMIN });
const procs = {
  plain: { before: await startBuild(builds.before, {}), now: await startBuild(builds.now, {}) },
  fleet: { before: await startBuild(builds.before, fleetEnv(redisBefore.url)), now: await startBuild(builds.now, fleetEnv(redisNow.url)) },
};
try {
  const ids = (await (await fetch(`${v1Url}/iam/v1/identities?uidp.descendants_of=${org}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
    items: { id: string }[];
  };
  const uid = ids.items[0]?.id as string;
  const v2Path = `/iam/v2beta1/identities/${uid}`;
  const figures: { name: string; mode: 'plain' | 'fleet'; caller: (url: string) => Caller }[] = [
    { name: 'translated Get', mode: 'plain', caller: (url) => restCaller(url, v2Path, TOKEN) },
    { name: 'v1 passthrough read', mode: 'plain', caller: (url) => restCaller(url, `/iam/v1/identities?id=${uid}`, TOKEN) },
    { name: 'gRPC Get', mode: 'plain', caller: (url) => grpcCaller(url, uid, TOKEN) },
    { name: 'translated Get, fleet on', mode: 'fleet', caller: (url) => restCaller(url, v2Path, TOKEN) },
    { name: 'gRPC Get, fleet on', mode: 'fleet', caller: (url) => grpcCaller(url, uid, TOKEN) },
  ];
  const sides = figures.map((f) => ({ before: f.caller(procs[f.mode].before.url), now: f.caller(procs[f.mode].now.url) }));
  const cpu = figures.map(() => ({ before: [] as number[], now: [] as number[] }));
  const p50 = figures.map(() => ({ before: [] as number[], now: [] as number[] }));
  // the first round warms every process up and is not counted
  for (let r = 0; r <= ROUNDS; r += 1) {
    for (const [i, f] of figures.entries()) {
      for (const build of r % 2 === 0 ? (['before', 'now'] as const) : (['now', 'before'] as const)) {
        const side = (sides[i] as (typeof sides)[number])[build];
        side.latencies.length = 0;
        const v = await cpuPerCall(procs[f.mode][build].pid, REQUESTS, side.call);
        if (r === 0) continue;
        cpu[i]?.[build].push(v);
        p50[i]?.[build].push(median(side.latencies));
      }
    }
  }
  const ratio = (xs: { before: number[]; now: number[] }) => {
    const rs = xs.now.map((x, k) => x / (xs.before[k] as number));
    return `${range(rs)} (${median(rs).toFixed(2)})`;
  };
  console.log(
    `this checkout against the build in BENCH_BEFORE: ${ROUNDS} rounds of interleaved blocks of ${REQUESTS} calls, 4 at a time, each build in its own process\n`,
  );
  console.log('| figure | before | now | now / before (median) |');
  console.log('|---|---|---|---|');
  for (const [i, f] of figures.entries()) {
    const c = cpu[i] as { before: number[]; now: number[] };
    const p = p50[i] as { before: number[]; now: number[] };
    console.log(`| ${f.name}: CPU per call (µs) | ${range(c.before, 0)} | ${range(c.now, 0)} | ${ratio(c)} |`);
    console.log(`| ${f.name}: p50 (ms) | ${range(p.before, 3)} | ${range(p.now, 3)} | ${ratio(p)} |`);
  }
} finally {
  for (const p of [procs.plain.before, procs.plain.now, procs.fleet.before, procs.fleet.now, emulator]) p.child.kill();
  await redisBefore.stop();
  await redisNow.stop();
}
