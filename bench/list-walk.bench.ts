// List walks and snapshot memory. Walks 20,000 and 40,000 groups through the proxy at
// page_size=200: from a new snapshot (a caller without one, for a v1 answer no snapshot was made
// from), by a second caller given the same v1 answer (who shares the first one's content), and again
// from the kept snapshot, each next to one direct v1 list call of the same collection and the HTTP
// floor (the same number of page round trips against a bare server answering a pre-built page),
// interleaved, three rounds, with the same v1 answer loaded by hand in each round (minimal-list-load.ts):
// the least a walk over a changed answer can take where the bench runs. Then
// the heap one snapshot of 100,000 groups holds against its v1 JSON, whether expired snapshots are
// freed within one TTL, and whether all snapshots stay under LIST_CACHE_MAX_BYTES. Load generator,
// proxy and emulator share one process (run with --expose-gc), so every side pays the client alike.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { serve } from '../src/commands/serve.js';
import { loadSettings } from '../src/config/load-settings.js';
import { startEmulator } from '../src/emulator/start-emulator.js';
import { median, range } from './support/figures.js';
import { minimalListLoad } from './support/minimal-list-load.js';
import { HAVE_REDIS, RedisServer } from '../test/support/redis-server.js';

const SIZES = (process.env.BENCH_SIZES ?? '20000,40000').split(',').map(Number);
const MEMORY_SIZE = Number(process.env.BENCH_MEMORY_SIZE ?? 100_000);
const ROUNDS = 3;
const CALLERS = 8;
const PAGE_SIZE = 200;
const TTL_MS = 3_000;

// The emulator shares this process: building a list of 100,000 groups can take longer than the
// default 600 ms attempt timeout on a busy machine. These figures are of time and memory, not of
// timeouts, so v1 is given time.
const SLOW_V1 = { V1_ATTEMPT_TIMEOUT_MS: '10000', V1_TIMEOUT_MS: '20000' };

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:list does)');

const hex = (label: string, n: number) => createHash('sha256').update(label).digest('hex').slice(0, n);

function seedFile(n: number): { file: string; org: string; tokens: string[] } {
  const org = hex(`bench-org-${n}`, 40);
  const groups: Record<string, unknown>[] = [{ id: org, name: 'bench-org' }];
  for (let i = 0; i < n; i += 1)
    groups.push({ id: `${org}/${hex(`g${i}`, 16)}`, name: `group-${String(i).padStart(6, '0')}`, description: `benchmark group ${i}` });
  const tokens: string[] = [];
  const identities: Record<string, unknown>[] = [];
  const rolebindings: Record<string, unknown>[] = [];
  for (let r = 0; r < CALLERS; r += 1) {
    const id = `${org}/${hex(`caller${r}`, 16)}`;
    identities.push({ id, name: `caller-${r}`, servicePrincipal: 'INGESTER' });
    rolebindings.push({ id: `${org}/${hex(`rb${r}`, 16)}`, identity: id, role: 'viewer' });
    tokens.push(`bench-token-${r}-${'x'.repeat(16)}`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'v2proxy-bench-'));
  const file = join(dir, `seed-${n}.json`);
  writeFileSync(file, JSON.stringify({ groups, identities, rolebindings, tokens: Object.fromEntries(tokens.map((t, i) => [t, identities[i]?.id])) }));
  return { file, org, tokens };
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const result = await fn();
  return [performance.now() - t0, result];
}

async function getText(pool: Pool, path: string, token: string): Promise<string> {
  const res = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${text}`);
  return text;
}

const getJson = async (pool: Pool, path: string, token: string) => JSON.parse(await getText(pool, path, token)) as Record<string, unknown>;

/** Walks every page; returns the items seen, the pages and the first page's text. */
async function walk(pool: Pool, org: string, token: string): Promise<{ seen: number; pages: number; first: string }> {
  let next = '';
  let seen = 0;
  let pages = 0;
  let first = '';
  do {
    const text = await getText(pool, `/iam/v2beta1/groups?uidp.children_of=${org}&page_size=${PAGE_SIZE}${next ? `&page_token=${next}` : ''}`, token);
    const page = JSON.parse(text) as { groups: unknown[]; nextPageToken: string };
    if (pages === 0) first = text;
    seen += page.groups.length;
    next = page.nextPageToken;
    pages += 1;
  } while (next !== '' && pages < 10_000);
  return { seen, pages, first };
}

interface Row {
  n: number;
  directMs: number;
  walkMs: number[];
  sharedMs: number[];
  rewalkMs: number[];
  floorMs: number[];
  /** the hand-written load of the same v1 answer (minimal-list-load.ts), once per round */
  loadMs: number[];
  pages: number;
  walkCalls: number;
  sharedCalls: number;
  rewalkCalls: number;
}

/**
 * Walks of `n` groups through one proxy per variant (each on the same emulator, with its own
 * settings), the variants taking turns within each round: one row per variant.
 */
async function measure(n: number, variants: Record<string, string>[] = [{}]): Promise<Row[]> {
  const { file, org, tokens } = seedFile(n);
  const emu = await startEmulator({ host: '127.0.0.1', port: 0, seedFile: file, trustedIssuers: [] });
  const proxies: Awaited<ReturnType<typeof serve>>[] = [];
  for (const env of variants) {
    const loaded = loadSettings({ PORT: '0', LOG_LEVEL: 'silent', V1_BASE_URL: emu.url, LIST_CACHE_TTL_MS: '60000', ...SLOW_V1, ...env });
    if (!loaded.ok) throw new Error(loaded.error);
    proxies.push(await serve(loaded.settings));
  }
  const direct = new Pool(emu.url, { connections: 1 });
  const throughs = proxies.map((proxy) => new Pool(proxy.url, { connections: 1 }));
  const bare = Fastify({ logger: false });
  let page = '';
  bare.get('/page', (_req, reply) => reply.type('application/json').send(page));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const floorPool = new Pool(`http://127.0.0.1:${(bare.server.address() as { port: number }).port}`, { connections: 1 });
  /** One walk by `token` that must see `items`: its time, its v1 calls and its pages. */
  const countedWalk = async (through: Pool, label: string, token: string, items: number): Promise<{ ms: number; calls: number; pages: number }> => {
    emu.stats.reset();
    const [ms, walked] = await timed(() => walk(through, org, token));
    if (walked.seen !== items) throw new Error(`${label} saw ${walked.seen} of ${items}`);
    return { ms, calls: emu.stats.snapshot().total, pages: walked.pages };
  };
  try {
    const v1Path = `/iam/v1/groups?uidp.children_of=${org}`;
    // warm-up: v1, a walk on each proxy (the times store sees every record once), the floor
    await getJson(direct, v1Path, tokens[CALLERS - 1] as string);
    for (const through of throughs) page = (await walk(through, org, tokens[CALLERS - 1] as string)).first;
    const rows: Row[] = throughs.map(() => ({
      n,
      directMs: Number.POSITIVE_INFINITY,
      walkMs: [],
      sharedMs: [],
      rewalkMs: [],
      floorMs: [],
      loadMs: [],
      pages: 0,
      walkCalls: 0,
      sharedCalls: 0,
      rewalkCalls: 0,
    }));
    let items = n;
    const minimalTimes = new Map<string, { fingerprint: string; added: string }>();
    minimalListLoad(await getText(direct, v1Path, tokens[CALLERS - 1] as string), minimalTimes, Date.now());
    // direct call, walks and floor alternate, so drift on a shared machine falls on all alike
    for (let r = 0; r < ROUNDS; r += 1) {
      for (const [v, through] of throughs.entries()) {
        const row = rows[v] as Row;
        // one more group, so v1's answer is one no snapshot was made from: the first walk translates it all
        const added = await direct.request({
          method: 'POST',
          path: `/iam/v1/groups/${org}`,
          headers: { authorization: `Bearer ${emu.devToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `added-${r}-${v}` }),
        });
        await added.body.dump();
        if (added.statusCode !== 200) throw new Error(`adding a group: ${added.statusCode}`);
        items += 1;
        const first = tokens[2 * r] as string;
        const second = tokens[2 * r + 1] as string;
        const [dms, body] = await timed(() => getJson(direct, v1Path, first));
        if ((body.items as unknown[]).length !== items) throw new Error('direct list is incomplete');
        row.directMs = Math.min(row.directMs, dms);
        // the hand-written load of the same answer, its times store kept across rounds as the proxy's is
        const v1Text = await getText(direct, v1Path, first);
        const [lms, loaded] = await timed(async () => minimalListLoad(v1Text, minimalTimes, Date.now()));
        if (loaded.count !== items) throw new Error('the hand-written load is incomplete');
        row.loadMs.push(lms);
        const walked = await countedWalk(through, 'walk', first, items);
        row.walkMs.push(walked.ms);
        row.walkCalls = walked.calls;
        row.pages = walked.pages;
        const shared = await countedWalk(through, 'shared walk', second, items);
        row.sharedMs.push(shared.ms);
        row.sharedCalls = shared.calls;
        const again = await countedWalk(through, 're-walk', first, items);
        row.rewalkMs.push(again.ms);
        row.rewalkCalls = again.calls;
        // the client reads each floor page as it reads a walk's (parsed, its items counted): the load
        // generator shares the process, so every side pays for it alike
        const [floor] = await timed(async () => {
          let seen = 0;
          for (let p = 0; p < walked.pages; p += 1) seen += ((await getJson(floorPool, '/page', first)).groups as unknown[]).length;
          if (seen !== walked.pages * PAGE_SIZE) throw new Error(`the floor's pages held ${seen} items`);
        });
        row.floorMs.push(floor);
      }
    }
    return rows;
  } finally {
    await Promise.all([direct.close(), ...throughs.map((t) => t.close()), floorPool.close()]);
    await bare.close();
    for (const proxy of proxies) await proxy.close();
    await emu.close();
  }
}

function heapMiB(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

async function memory(n: number): Promise<void> {
  const { file, org, tokens } = seedFile(n);
  const emu = await startEmulator({ host: '127.0.0.1', port: 0, seedFile: file, trustedIssuers: [] });
  const direct = new Pool(emu.url, { connections: 1 });
  const v1Bytes = Buffer.byteLength(await getText(direct, `/iam/v1/groups?uidp.children_of=${org}`, tokens[0] as string));
  // room for three snapshots, not for the four that follow
  const boundBytes = Math.round(3.5 * v1Bytes);
  const loaded = loadSettings({
    PORT: '0',
    LOG_LEVEL: 'silent',
    V1_BASE_URL: emu.url,
    LIST_CACHE_TTL_MS: String(TTL_MS),
    LIST_CACHE_MAX_BYTES: String(boundBytes),
    V1_MAX_RESPONSE_BYTES: String(4 * v1Bytes),
    ...SLOW_V1,
  });
  if (!loaded.ok) throw new Error(loaded.error);
  const proxy = await serve(loaded.settings);
  const through = new Pool(proxy.url, { connections: 1 });
  // each caller lists in its own order, so each holds a snapshot of its own: callers given the same
  // v1 answer for the same query and order would share one
  const ORDERS = ['uid', 'uid desc', 'name', 'name desc', 'createTime', 'createTime desc', 'updateTime', 'updateTime desc'];
  const firstPage = (c: number) =>
    getText(
      through,
      `/iam/v2beta1/groups?uidp.children_of=${org}&page_size=${PAGE_SIZE}&order_by=${encodeURIComponent(ORDERS[c] as string)}`,
      tokens[c] as string,
    );
  const expire = () => new Promise((r) => setTimeout(r, TTL_MS + 500));
  try {
    // the times store learns every record once; that snapshot then expires (the heap settles after
    // two waits)
    await firstPage(0);
    await expire();
    await expire();
    const base = heapMiB();
    for (let c = 1; c <= 3; c += 1) await firstPage(c);
    const three = heapMiB() - base;
    await expire();
    const left = heapMiB() - base;
    for (let c = 4; c < CALLERS; c += 1) await firstPage(c);
    const all = heapMiB() - base;
    const v1MiB = v1Bytes / 2 ** 20;
    console.log(`snapshot memory, ${n.toLocaleString('en')} groups (heap after a full collection, in this process)`);
    console.log('| figure | target | measured |');
    console.log('|---|---|---|');
    console.log(
      `| one snapshot's heap (a third of three callers' snapshots) / its v1 JSON (${v1MiB.toFixed(1)} MiB) | ≤ 1.2 | ${(three / 3 / v1MiB).toFixed(2)} (${(three / 3).toFixed(1)} MiB) |`,
    );
    console.log(`| the same, from what their expiry freed | ≤ 1.2 | ${((three - left) / 3 / v1MiB).toFixed(2)} |`);
    console.log(`| heap still held one TTL (${TTL_MS} ms) after their last use | 0 | ${left.toFixed(1)} MiB |`);
    console.log(
      `| heap of all snapshots after ${CALLERS - 4} more callers listed, LIST_CACHE_MAX_BYTES ${(boundBytes / 2 ** 20).toFixed(1)} MiB | ≤ the bound | ${all.toFixed(1)} MiB |`,
    );
  } finally {
    await through.close();
    await direct.close();
    await proxy.close();
    await emu.close();
  }
}

const r2 = (x: number) => x.toFixed(2);

/** A proxy's settings with the fleet on: Redis, and a progressive route on group lists at its first step (all translated). */
function fleetEnv(redisUrl: string): Record<string, string> {
  const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-bench-fleet-')), 'rollout.yaml');
  writeFileSync(
    file,
    'routes:\n  - resource: groups\n    operations: [list]\n    steps:\n      - native: 0\n        pause: 1h\n      - native: 100\n    analysis:\n      interval: 1s\n      minRequests: 1\n',
  );
  // a native backend is named (the route needs one) and never called at this step
  return { REDIS_URL: redisUrl, ROLLOUT_FILE: file, V2_BASE_URL: 'http://127.0.0.1:9' };
}

async function main(): Promise<void> {
  // memory first: what the walks leave behind would be freed during its waits and blur its figures
  await memory(MEMORY_SIZE);
  const rows: Row[] = [];
  const largest = Math.max(...SIZES);
  // at the largest size, the same walks again through a proxy with the fleet on: Redis and a
  // progressive route on group lists (its first step translating every walk, each page counted for
  // the analysis and sent to Redis)
  const redis = HAVE_REDIS ? await RedisServer.start() : undefined;
  let fleetRow: Row | undefined;
  try {
    for (const n of SIZES) {
      const fleet = redis && n === largest ? [fleetEnv(redis.url)] : [];
      const [plain, withFleet] = await measure(n, [{}, ...fleet]);
      rows.push(plain as Row);
      if (withFleet) fleetRow = withFleet;
    }
  } finally {
    await redis?.stop();
  }
  console.log(`\nlist walks at page_size=${PAGE_SIZE}, ${ROUNDS} rounds, interleaved; load generator, proxy and emulator in one process`);
  console.log(
    '| items | direct v1 call (best) | HTTP floor | new-snapshot walk | walk / (direct + floor) | walk, content shared | shared / (direct + floor) | re-walk | re-walk / floor | v1 calls (walk, shared, re-walk) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const floors: string[] = [];
  for (const r of rows) {
    const over = (xs: number[], base: (i: number) => number) => xs.map((x, i) => x / base(i));
    const directAndFloor = (i: number) => r.directMs + (r.floorMs[i] as number);
    console.log(
      `| ${r.n} | ${r.directMs.toFixed(0)} ms | ${range(r.floorMs, 0)} ms | ${range(r.walkMs, 0)} ms | ${range(over(r.walkMs, directAndFloor))} | ${range(r.sharedMs, 0)} ms | ${range(over(r.sharedMs, directAndFloor))} | ${range(r.rewalkMs, 0)} ms | ${range(over(r.rewalkMs, (i) => r.floorMs[i] as number))} | ${r.walkCalls}, ${r.sharedCalls}, ${r.rewalkCalls} |`,
    );
    // the least a changed-answer walk can take: the direct call, the HTTP floor of its pages, and the hand-written load
    const least = r.loadMs.map((l, i) => (directAndFloor(i) + l) / directAndFloor(i));
    floors.push(`| ${r.n} | ${range(r.loadMs, 0)} ms | ${range(least)} | ${range(over(r.walkMs, (i) => directAndFloor(i) + (r.loadMs[i] as number)))} |`);
  }
  console.log(
    '\nthe floor of a walk over a changed answer: the same v1 answer loaded by hand (minimal-list-load.ts: parse, translate, render, fingerprint and look up each item, add its times, sort, join), in the same rounds',
  );
  console.log('| items | hand-written load | (direct + floor + load) / (direct + floor) | new-snapshot walk / (direct + floor + load) |');
  console.log('|---|---|---|---|');
  for (const line of floors) console.log(line);
  const off = rows.find((r) => r.n === largest);
  if (!redis) console.log('\nredis-server is not installed: the walks with the fleet on are left out');
  else if (off && fleetRow) {
    const on = fleetRow;
    console.log(`\n${largest} items, the same walks with the fleet on (REDIS_URL, a progressive route on group lists) and off, taking turns in each round`);
    console.log('| walk | target | fleet off | fleet on | on / off (median) |');
    console.log('|---|---|---|---|---|');
    for (const [name, pick] of [
      ['new snapshot', (r: Row) => r.walkMs],
      ['content shared', (r: Row) => r.sharedMs],
      ['re-walk', (r: Row) => r.rewalkMs],
    ] as const) {
      const ratios = pick(on).map((x, i) => x / (pick(off)[i] as number));
      console.log(`| ${name} | on ≤ off | ${range(pick(off), 0)} ms | ${range(pick(on), 0)} ms | ${range(ratios)} (${r2(median(ratios))}) |`);
    }
  }
  const [small, large] = rows;
  if (small && large && large.n === 2 * small.n) {
    const best = (xs: number[]) => Math.min(...xs);
    console.log(`growth ${small.n} → ${large.n} (best walks): ${r2(best(large.walkMs) / best(small.walkMs))} × (linear: 2.00)`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
