import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/load-settings.js';
import { buildProxyApp } from '../../src/app/build-proxy-app.js';
import type { WriteRouteReport } from '../../src/shadow/write-book.js';
import { type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, DEV_TOKEN } from '../support/fixtures.js';
import { settingsFrom } from '../support/proxy-harness.js';
import { seededRandom } from '../support/seeded-random.js';
import { until } from '../support/until.js';

const ADMIN = 'admin-token-for-write-verification';
// v1 keeps no times for groups: the proxy's own differ from the native side's by design
const IGNORE = 'ignore: [createTime, updateTime]';
const GROUPS = '/iam/v2beta1/groups';

describe('write verification over the emulator', () => {
  let h: EmulatorHarness;
  let clock = Date.parse('2026-06-01T00:00:00Z');
  const apps: FastifyInstance[] = [];

  async function proxyWith(rollout: string, env: Record<string, string> = {}): Promise<FastifyInstance> {
    const path = join(mkdtempSync(join(tmpdir(), 'v2proxy-verify-')), 'rollout.yaml');
    writeFileSync(path, rollout);
    const settings = settingsFrom({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: path, ADMIN_TOKEN: ADMIN, VERIFY_DELAY_MS: '0', ...env });
    const app = await buildProxyApp(resolveSettings(settings, h.url, 0), { now: () => clock, watchRollout: false });
    apps.push(app);
    return app;
  }
  const send = (app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, caller: string, body?: object) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${DEV_TOKEN}`, 'x-caller': caller }, ...(body ? { payload: body } : {}) });
  const writes = async (app: FastifyInstance) =>
    (await app.inject({ method: 'GET', url: '/admin/diff.json', headers: { authorization: `Bearer ${ADMIN}` } })).json().writes as WriteRouteReport[];
  const settledCount = (ws: WriteRouteReport[]) => ws.reduce((n, w) => n + w.verified + w.errors + w.unverified + w.skipped, 0);
  /** Waits until `n` verifications have ended, one way or another. */
  const verified = (app: FastifyInstance, n: number) =>
    until(
      () => writes(app),
      (ws) => settledCount(ws) >= n,
      `${n} writes verified`,
      20_000,
    );
  const routeOf = (ws: WriteRouteReport[], operation: string) => ws.find((w) => w.resource === 'groups' && w.operation === operation) as WriteRouteReport;
  const faults = (rules: object[]) => h.dev('POST', '/__emulator/faults', { body: { rules } });
  /** The mutating calls each backend received for groups, from the emulator's own counts. */
  async function mutatingCalls(): Promise<{ v1: number; native: number }> {
    const stats = (await h.dev('GET', '/__emulator/stats')).body as { requests: Record<string, number> };
    const sum = (prefix: string) =>
      Object.entries(stats.requests)
        .filter(([k]) => /^(POST|PUT|PATCH|DELETE) /.test(k) && k.split(' ')[1]?.startsWith(prefix))
        .reduce((n, [, v]) => n + v, 0);
    return { v1: sum('/iam/v1/groups'), native: sum(GROUPS) };
  }
  async function makeGroups(app: FastifyInstance, n: number, label: string): Promise<string[]> {
    const uids: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const made = await send(app, 'POST', `${GROUPS}/${A}`, 'setup', { name: `${label}-${i}`, description: 'first' });
      expect(made.statusCode).toBe(200);
      uids.push(made.json().uid);
    }
    return uids;
  }

  beforeAll(async () => {
    h = await startHarness({ random: seededRandom(36) });
  });
  afterEach(async () => {
    await h.dev('DELETE', '/__emulator/faults');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await h?.close();
  });

  it('2,000 healthy writes mixed with concurrent reads and writes to the same resources: no difference, and each backend got exactly the writes sent', async () => {
    const app = await proxyWith(
      `stickyBy: header:x-caller\nroutes:\n  - resource: groups\n    native: 50\n    verifyWrites: 100\n    noise: 20\n    ${IGNORE}\n`,
      { VERIFY_MAX_INFLIGHT: '10000' },
    );
    const shared = await makeGroups(app, 12, 'shared');
    await verified(app, 12);
    await h.dev('POST', '/__emulator/stats/reset');
    const sent = { translate: 0, native: 0 };
    let writesSent = 0;
    let n = 0;
    const count = (res: { statusCode: number; headers: Record<string, unknown> }) => {
      expect(res.statusCode).toBe(200);
      sent[res.headers['x-v2proxy-backend'] as 'translate' | 'native'] += 1;
      writesSent += 1;
    };
    // eight clients at once: each makes groups of its own and deletes them, and all of them update the shared ones
    const worker = async (w: number) => {
      const own: string[] = [];
      while (writesSent < 2000) {
        n += 1;
        const caller = `c${(n * 7 + w) % 40}`;
        const pick = n % 10;
        if (pick < 2) {
          const made = await send(app, 'POST', `${GROUPS}/${A}`, caller, { name: `w${w}-${n}`, description: `made ${n}` });
          count(made);
          own.push(made.json().uid);
        } else if (pick < 4 && own.length > 0) {
          count(await send(app, 'DELETE', `${GROUPS}/${own.shift()}`, caller));
        } else if (pick < 6) {
          count(await send(app, 'PATCH', `${GROUPS}/${shared[n % shared.length]}?update_mask=description`, caller, { description: `masked ${n}` }));
        } else if (pick < 8) {
          const target = own.at(-1) ?? shared[n % shared.length];
          count(await send(app, 'PATCH', `${GROUPS}/${target}`, caller, { description: `unmasked ${n}`, verified: n % 3 === 0 }));
        } else {
          const read =
            pick === 8 ? await send(app, 'GET', `${GROUPS}/${shared[n % shared.length]}`, caller) : await send(app, 'GET', `${GROUPS}?page_size=5`, caller);
          expect(read.statusCode).toBe(200);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    const ws = await verified(app, 12 + writesSent);
    const totals = ws.reduce(
      (t, w) => ({
        verified: t.verified + w.verified,
        differed: t.differed + w.differed,
        unverified: t.unverified + w.unverified,
        errors: t.errors + w.errors,
      }),
      { verified: 0, differed: 0, unverified: 0, errors: 0 },
    );
    expect(ws.flatMap((w) => w.fields)).toEqual([]);
    expect(totals.differed).toBe(0);
    expect(totals.errors).toBe(0);
    // most writes held still long enough to be checked whole (the rest raced another write: checked against the other side, or unverified)
    expect(totals.verified).toBeGreaterThan(writesSent * 0.8);
    expect(ws.reduce((t, w) => t + w.checks.intent.checked, 0)).toBeGreaterThan(writesSent * 0.5);
    expect(sent.native).toBeGreaterThan(400);
    expect(sent.translate).toBeGreaterThan(400);
    // verification only reads: each backend received exactly the writes it served
    expect(await mutatingCalls()).toEqual({ v1: sent.translate, native: sent.native });
  }, 120_000);

  it('a native side dropping `description` on 1 % of PATCHes is flagged by the intent check, naming the field, within 2,000 writes', async () => {
    const app = await proxyWith(`routes:\n  - resource: groups\n    native: 100\n    verifyWrites: 100\n    ${IGNORE}\n`);
    const shared = await makeGroups(app, 40, 'drops');
    await faults([{ prefix: GROUPS, method: 'PATCH', rate: 0.01, write: { drop: ['description'] } }]);
    for (let i = 0; i < 2000; i += 8) {
      await Promise.all(
        Array.from({ length: 8 }, (_, k) => {
          const target = shared[(i + k) % shared.length];
          return (i + k) % 2 === 0
            ? send(app, 'PATCH', `${GROUPS}/${target}?update_mask=description`, 'one', { description: `d${i + k}` })
            : send(app, 'PATCH', `${GROUPS}/${target}`, 'one', { description: `d${i + k}` });
        }),
      );
    }
    const update = routeOf(await verified(app, 2040), 'update');
    expect(update.checks.intent.differed).toBeGreaterThan(5);
    expect(update.checks.answer.differed).toBe(0);
    expect(update.checks['other side'].differed).toBe(0);
    expect(update.fields.map((f) => [f.check, f.path])).toEqual([['intent', 'description']]);
    expect(update.fields[0]?.samples[0]?.url).toMatch(/^PATCH \/iam\/v2beta1\/groups\//);
    // hashed unless DIFF_SAMPLE_VALUES
    expect(update.fields[0]?.samples[0]?.primary).toMatch(/^[0-9a-f]{12}$/);
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^v2proxy_write_differences_total\{resource="groups",operation="update",check="intent"\} \d+$/m);
  }, 120_000);

  it('a translated write read through native finds a planted representation difference under "the other side"', async () => {
    const app = await proxyWith(`routes:\n  - resource: groups\n    native: 0\n    verifyWrites: 100\n    ${IGNORE}\n`);
    const [uid] = await makeGroups(app, 1, 'represented');
    await verified(app, 1);
    await faults([{ prefix: GROUPS, method: 'GET', set: { kind: 'planted' } }]);
    for (let i = 0; i < 3; i += 1) {
      expect((await send(app, 'PATCH', `${GROUPS}/${uid}?update_mask=description`, 'one', { description: `r${i}` })).headers['x-v2proxy-backend']).toBe(
        'translate',
      );
      await verified(app, 2 + i);
    }
    const update = routeOf(await writes(app), 'update');
    expect(update).toMatchObject({
      verified: 3,
      differed: 3,
      checks: { intent: { differed: 0 }, answer: { differed: 0 }, 'other side': { checked: 3, differed: 3 } },
    });
    expect(update.fields.map((f) => [f.check, f.path, f.kind])).toEqual([['other side', 'kind', 'extra']]);
  }, 60_000);

  it('a native delete that leaves its resource answering is flagged; an update that changes a field it did not name is too', async () => {
    const app = await proxyWith(`routes:\n  - resource: groups\n    native: 100\n    verifyWrites: 100\n    ${IGNORE}\n`);
    const [kept, changed] = await makeGroups(app, 2, 'misbehaving');
    await verified(app, 2);
    await faults([
      { prefix: GROUPS, method: 'DELETE', write: { keep: true } },
      { prefix: GROUPS, method: 'PATCH', write: { set: { verified: true } } },
    ]);
    expect((await send(app, 'DELETE', `${GROUPS}/${kept}`, 'one')).statusCode).toBe(200);
    expect((await send(app, 'PATCH', `${GROUPS}/${changed}?update_mask=description`, 'one', { description: 'asked' })).statusCode).toBe(200);
    const ws = await verified(app, 4);
    const del = routeOf(ws, 'delete');
    expect(del).toMatchObject({ verified: 1, differed: 1, checks: { intent: { differed: 1 }, 'other side': { differed: 0 } } });
    expect(del.fields.map((f) => [f.check, f.path, f.kind])).toEqual([['intent', 'status', 'status']]);
    const update = routeOf(ws, 'update');
    // the mask named description only: verified, changed by the native side, is flagged against the pre-image
    expect(update.fields.map((f) => [f.check, f.path])).toEqual([['intent', 'verified']]);
    expect(update.checks.answer.differed).toBe(0);
    // the report page shows the writes with their checks
    const page = await app.inject({ method: 'GET', url: '/admin/diff', headers: { authorization: `Bearer ${ADMIN}` } });
    expect(page.body).toContain('data-write="groups delete"');
    expect(page.body).toMatch(/<td class="check">intent<\/td><td><code>verified<\/code>/);
  }, 60_000);

  it("a translated update's pre-image is the record the translation changed: a v1 that also changes a field it was not asked to is flagged", async () => {
    const app = await proxyWith(`routes:\n  - resource: groups\n    native: 0\n    verifyWrites: 100\n    ${IGNORE}\n`);
    const [uid] = await makeGroups(app, 1, 'v1-changes');
    await verified(app, 1);
    await h.dev('POST', '/__emulator/stats/reset');
    await faults([{ prefix: '/iam/v1/groups', method: 'PUT', write: { set: { verified: true } } }]);
    const patched = await send(app, 'PATCH', `${GROUPS}/${uid}?update_mask=description`, 'one', { description: 'asked' });
    expect(patched.headers['x-v2proxy-backend']).toBe('translate');
    const update = routeOf(await verified(app, 2), 'update');
    expect(update.fields.map((f) => [f.check, f.path])).toEqual([['intent', 'verified']]);
    // no read of its own before the write: the translation's read of the record is the pre-image
    const stats = (await h.dev('GET', '/__emulator/stats')).body as { requests: Record<string, number> };
    const v1Reads = Object.entries(stats.requests)
      .filter(([k]) => k.startsWith('GET /iam/v1/groups'))
      .reduce((n, [, v]) => n + v, 0);
    // the translation's own read, and the verification's read back through translation
    expect(v1Reads).toBe(2);
  });

  it('a progressive write route aborts on its write diff rate', async () => {
    const app = await proxyWith(
      `stickyBy: header:x-caller
routes:
  - resource: groups
    operations: [update]
    verifyWrites: 100
    ${IGNORE}
    steps:
      - native: 50
      - native: 100
    analysis:
      interval: 10s
      minSamples: 40
      maxWriteDiffRate: 0.05
guard:
  maxErrorRate: 1
`,
    );
    const progress = async () =>
      (await app.inject({ method: 'GET', url: '/admin/rollout', headers: { authorization: `Bearer ${ADMIN}` } })).json().routes[0].progress;
    await until(progress, (p) => p.state === 'progressing', 'the route started');
    const shared = await makeGroups(app, 20, 'progressive');
    await faults([{ prefix: GROUPS, method: 'PATCH', write: { drop: ['description'] } }]);
    let i = 0;
    for (let interval = 0; interval < 2; interval += 1) {
      for (const end = i + 120; i < end; i += 1)
        await send(app, 'PATCH', `${GROUPS}/${shared[i % shared.length]}?update_mask=description`, `c${i}`, { description: `p${i}` });
      await verified(app, i);
      clock += 11_000;
      await until(progress, (p) => p.look > interval || p.state === 'aborted', `interval ${interval} judged`);
    }
    const p = await until(progress, (x) => x.state === 'aborted', 'aborted');
    expect(p.lastAbort.reason).toMatch(/^maxWriteDiffRate: the interval \[.+\] lies wholly above the tolerance 5 % \(verified writes: \d+ of \d+/);
    const check = p.lastAbort.figures.checks.find((c: { check: string }) => c.check === 'maxWriteDiffRate');
    expect(check).toMatchObject({ verdict: 'fail', method: 'Wilson score interval' });
  }, 60_000);
});
