// Walks 10,000 and 50,000 groups through the proxy at page_size=200 and times one direct v1 list call
// of the same collection in the same run. Every walk starts from a cold snapshot (its own caller), and
// each figure is the best of three. Load generator, proxy and emulator share one process, so both
// sides pay the client's costs alike. Bounded: fixed sizes, fixed rounds.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { serve } from '../src/commands/serve.js';
import { loadSettings } from '../src/config/load-settings.js';
import { startEmulator } from '../src/emulator/start-emulator.js';

const SIZES = (process.env.BENCH_SIZES ?? '10000,50000').split(',').map(Number);
const ROUNDS = 3;
const PAGE_SIZE = 200;

const hex = (label: string, n: number) => createHash('sha256').update(label).digest('hex').slice(0, n);

function seedFile(n: number): { file: string; org: string; tokens: string[] } {
  const org = hex(`bench-org-${n}`, 40);
  const groups: Record<string, unknown>[] = [{ id: org, name: 'bench-org' }];
  for (let i = 0; i < n; i += 1)
    groups.push({ id: `${org}/${hex(`g${i}`, 16)}`, name: `group-${String(i).padStart(6, '0')}`, description: `benchmark group ${i}` });
  const tokens: string[] = [];
  const identities: Record<string, unknown>[] = [];
  const rolebindings: Record<string, unknown>[] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
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

async function getJson(pool: Pool, path: string, token: string): Promise<Record<string, unknown>> {
  const res = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } });
  const body = (await res.body.json()) as Record<string, unknown>;
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${JSON.stringify(body)}`);
  return body;
}

/**
 * What `pages` sequential round trips cost with no proxy work at all: a bare fastify server answering
 * an already serialized page of the same size, read by the same client. No walk can be faster.
 */
async function httpFloor(page: string, pages: number, token: string): Promise<number> {
  const app = Fastify({ logger: false });
  app.get('/page', (_req, reply) => reply.type('application/json').send(page));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const pool = new Pool(`http://127.0.0.1:${(app.server.address() as { port: number }).port}`, { connections: 1 });
  try {
    let best = Number.POSITIVE_INFINITY;
    for (let r = 0; r < ROUNDS; r += 1) {
      const [ms] = await timed(async () => {
        for (let p = 0; p < pages; p += 1) await getJson(pool, '/page', token);
      });
      best = Math.min(best, ms);
    }
    return best;
  } finally {
    await pool.close();
    await app.close();
  }
}

interface Row {
  n: number;
  directMs: number;
  walkMs: number;
  /** the same number of page round trips to a bare fastify server answering a precomputed page */
  floorMs: number;
  v1Calls: number;
  pages: number;
  rssMiB: number;
}

async function measure(n: number): Promise<Row> {
  const { file, org, tokens } = seedFile(n);
  const emu = await startEmulator({ host: '127.0.0.1', port: 0, seedFile: file, trustedIssuers: [] });
  const loaded = loadSettings({ PORT: '0', LOG_LEVEL: 'silent', V1_BASE_URL: emu.url, LIST_CACHE_TTL_MS: '60000' });
  if (!loaded.ok) throw new Error(loaded.error);
  const proxy = await serve(loaded.settings);
  const direct = new Pool(emu.url, { connections: 1 });
  const through = new Pool(proxy.url, { connections: 1 });
  try {
    const v1Path = `/iam/v1/groups?uidp.children_of=${org}`;
    await getJson(direct, v1Path, tokens[0] as string); // warm-up
    let directMs = Number.POSITIVE_INFINITY;
    let walkMs = Number.POSITIVE_INFINITY;
    let v1Calls = 0;
    let pages = 0;
    let firstPage = '';
    // direct call and walk alternate, so drift on a shared machine falls on both alike
    for (let r = 0; r < ROUNDS; r += 1) {
      const [dms, body] = await timed(() => getJson(direct, v1Path, tokens[r] as string));
      if ((body.items as unknown[]).length !== n) throw new Error('direct list is incomplete');
      directMs = Math.min(directMs, dms);
      emu.stats.reset();
      const [ms, counted] = await timed(async () => {
        let token = '';
        let seen = 0;
        let p = 0;
        do {
          const page = await getJson(
            through,
            `/iam/v2beta1/groups?uidp.children_of=${org}&page_size=${PAGE_SIZE}${token ? `&page_token=${token}` : ''}`,
            tokens[r] as string,
          );
          if (p === 0) firstPage = JSON.stringify(page);
          seen += (page.groups as unknown[]).length;
          token = page.nextPageToken as string;
          p += 1;
        } while (token !== '' && p < 10_000);
        return { seen, p };
      });
      if (counted.seen !== n) throw new Error(`walk saw ${counted.seen} of ${n}`);
      walkMs = Math.min(walkMs, ms);
      v1Calls = emu.stats.snapshot().total;
      pages = counted.p;
    }
    const floorMs = await httpFloor(firstPage, pages, tokens[0] as string);
    return { n, directMs, walkMs, floorMs, v1Calls, pages, rssMiB: process.resourceUsage().maxRSS / 1024 };
  } finally {
    await direct.close();
    await through.close();
    await proxy.close();
    await emu.close();
  }
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const n of SIZES) rows.push(await measure(n));
  console.log(`list walk at page_size=${PAGE_SIZE}, best of ${ROUNDS}, cold snapshot per walk (load generator, proxy and emulator in one process)`);
  console.log('items    direct v1 call   proxy walk   pages  v1 calls  µs/item  walk/direct  HTTP floor  walk/(direct+floor)  peak RSS');
  for (const r of rows) {
    console.log(
      `${String(r.n).padEnd(8)} ${r.directMs.toFixed(1).padStart(11)} ms ${r.walkMs.toFixed(1).padStart(9)} ms ${String(r.pages).padStart(7)} ${String(r.v1Calls).padStart(9)} ${((r.walkMs * 1000) / r.n).toFixed(1).padStart(8)} ${(r.walkMs / r.directMs).toFixed(2).padStart(12)} ${r.floorMs.toFixed(1).padStart(8)} ms ${(r.walkMs / (r.directMs + r.floorMs)).toFixed(2).padStart(20)} ${r.rssMiB.toFixed(0).padStart(6)} MiB`,
    );
  }
  const small = rows.find((r) => r.n === 10_000);
  const large = rows.find((r) => r.n === 50_000);
  if (small && large) {
    console.log(`T(50k)/T(10k) = ${(large.walkMs / small.walkMs).toFixed(2)} (target ≤ 6: linear)`);
    console.log(`proxy walk / direct v1 call at 50k = ${(large.walkMs / large.directMs).toFixed(2)} (target ≤ 2)`);
    console.log(
      `HTTP floor at 50k = ${large.floorMs.toFixed(1)} ms = ${(large.floorMs / large.directMs).toFixed(2)} × the direct call: ${large.pages} bare round trips of one page, no proxy work`,
    );
    console.log(
      `proxy walk / (direct v1 call + HTTP floor) at 50k = ${(large.walkMs / (large.directMs + large.floorMs)).toFixed(2)} (1.00 = no cost beyond the v1 call and the round trips)`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
