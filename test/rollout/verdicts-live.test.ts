import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/load-settings.js';
import { buildProxyApp } from '../../src/app/build-proxy-app.js';
import { type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, DEV_TOKEN } from '../support/fixtures.js';
import { settingsFrom } from '../support/proxy-harness.js';
import { seededRandom } from '../support/seeded-random.js';
import { until } from '../support/until.js';

const ADMIN = 'admin-token-for-verdict-tests';
const SECOND = 1000;

interface Check {
  check: string;
  verdict: string;
  sides: { side: string; count: number; events: number; estimate: number }[];
  estimate: number;
  interval: { low: number; high: number } | null;
  level: number;
  tolerance: number;
  method: string;
}

interface Progress {
  state: string;
  step: number;
  reason: string;
  checks: Check[];
  lastAbort: { reason: string; figures: { checks: Check[] } | null } | null;
}

// groups get at half the callers, then all; 10 s intervals on a test clock, the guard told never to trip
const progressive = (analysis: string) => `stickyBy: header:x-caller
routes:
  - resource: groups
    operations: [get]
    steps:
      - native: 50
      - native: 100
    analysis:
      interval: 10s${analysis}
guard:
  maxErrorRate: 1
`;

describe('verdicts on the emulator: its fault rules drawn from a seeded generator', () => {
  let h: EmulatorHarness;
  let clock = Date.parse('2026-06-01T00:00:00Z');
  const apps: FastifyInstance[] = [];

  async function proxyWith(file: string): Promise<FastifyInstance> {
    const path = join(mkdtempSync(join(tmpdir(), 'v2proxy-verdicts-')), 'rollout.yaml');
    writeFileSync(path, file);
    const settings = settingsFrom({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: path, ADMIN_TOKEN: ADMIN });
    const app = await buildProxyApp(resolveSettings(settings, h.url, 0), { now: () => clock, watchRollout: false });
    apps.push(app);
    return app;
  }
  const admin = (app: FastifyInstance, url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN}` } });
  const progress = async (app: FastifyInstance) => (await admin(app, '/admin/rollout')).json().routes[0].progress as Progress;
  /** `n` reads of the tenant's root group, each by a caller of its own */
  async function reads(app: FastifyInstance, n: number, from: number): Promise<number> {
    let native = 0;
    for (let i = from; i < from + n; i += 1) {
      const res = await app.inject({ method: 'GET', url: `/iam/v2beta1/groups/${A}`, headers: { authorization: `Bearer ${DEV_TOKEN}`, 'x-caller': `c${i}` } });
      if (res.headers['x-v2proxy-backend'] === 'native') native += 1;
    }
    return native;
  }
  const started = (app: FastifyInstance) =>
    until(
      () => progress(app),
      (p) => p.state === 'progressing',
      'the route started',
    );
  const faults = (rules: object[]) => h.dev('POST', '/__emulator/faults', { body: { rules } });

  beforeAll(async () => {
    h = await startHarness({ random: seededRandom(35) });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await h?.close();
  });

  it('a native side failing 2 % of reads against none translated aborts, with its numbers (the default check: a rise of at most 0.5 points)', async () => {
    const app = await proxyWith(progressive(''));
    await started(app);
    await faults([{ prefix: '/iam/v2beta1/groups', rate: 0.02, status: 500 }]);
    try {
      await reads(app, 2400, 0);
      clock += 11 * SECOND;
      const first = await until(
        () => progress(app),
        (p) => p.checks.length > 0,
        'the first look',
      );
      expect(first.checks[0]).toMatchObject({ check: 'maxErrorRateIncrease', verdict: 'fail', tolerance: 0.005 });
      await reads(app, 600, 2400);
      clock += 11 * SECOND;
      const p = await until(
        () => progress(app),
        (x) => x.state === 'aborted',
        'aborted',
      );
      expect(p.lastAbort?.reason).toMatch(
        /^maxErrorRateIncrease: the interval \[\d\.\d+ %, \d\.\d+ %\] lies wholly above the tolerance 0\.5 % \(native requests: \d+ of \d+ \(\d\.\d+ %\), translated requests: 0 of \d+ \(0 %\)\) in 2 intervals in a row$/,
      );
      const check = p.lastAbort?.figures?.checks[0] as Check;
      const [native, translated] = check.sides;
      expect(native?.count).toBeGreaterThan(1200);
      expect((native?.estimate ?? 0) > 0.01 && (native?.estimate ?? 1) < 0.03).toBe(true);
      expect(translated?.events).toBe(0);
      expect(check.interval?.low).toBeGreaterThan(0.005);
      expect(check).toMatchObject({ method: 'Newcombe hybrid score interval', level: expect.any(Number) });
      expect(check.level).toBeGreaterThan(0.99);
    } finally {
      await h.dev('DELETE', '/__emulator/faults');
    }
  }, 60_000);

  it('the same 1 % failing on both sides promotes: the rise lies wholly below its tolerance', async () => {
    const app = await proxyWith(progressive('\n      maxErrorRateIncrease: 0.02'));
    await started(app);
    await faults([
      { prefix: '/iam/v1/groups', rate: 0.01, status: 500 },
      { prefix: '/iam/v2beta1/groups', rate: 0.01, status: 500 },
    ]);
    try {
      await reads(app, 1600, 10_000);
      clock += 11 * SECOND;
      const p = await until(
        () => progress(app),
        (x) => x.state === 'promoted',
        'promoted',
      );
      const check = p.checks[0] as Check;
      expect(check).toMatchObject({ check: 'maxErrorRateIncrease', verdict: 'pass', tolerance: 0.02 });
      // both sides failed some reads: neither is the zero baseline
      expect(check.sides.every((s) => s.events > 0 && s.count >= 600)).toBe(true);
      expect(check.interval?.high).toBeLessThan(0.02);
    } finally {
      await h.dev('DELETE', '/__emulator/faults');
    }
  }, 60_000);

  it('a difference planted on 1 % of native reads is flagged in the diff report, with its interval', async () => {
    const app = await proxyWith(`routes:
  - resource: groups
    operations: [get]
    shadow: 100
    ignore: [createTime, updateTime]
`);
    await faults([{ prefix: '/iam/v2beta1/groups', rate: 0.01, set: { description: 'planted' } }]);
    try {
      await reads(app, 1500, 20_000);
      const report = await until(
        async () => (await admin(app, '/admin/diff.json')).json(),
        (r) => r.routes[0] && r.routes[0].compared + r.routes[0].errors + r.routes[0].skipped >= 1500,
        'every shadow read booked',
      );
      const route = report.routes[0];
      const field = route.fields.find((f: { path: string }) => f.path === 'description');
      expect(field.verdict).toMatchObject({ verdict: 'fail', measure: 'differing share of compared reads (no noise arm)', tolerance: 0.0003, level: 0.98 });
      expect(field.verdict.sides[0]).toMatchObject({ side: 'compared reads', count: route.compared, events: field.differences });
      expect(field.differences / route.compared).toBeLessThan(0.03);
      expect(field.verdict.interval.low).toBeGreaterThan(0.0003);
      // nothing else differs: the planted field alone is in the report
      expect(route.fields.map((f: { path: string }) => f.path)).toEqual(['description']);
      const page = await app.inject({ method: 'GET', url: '/admin/diff', headers: { authorization: `Bearer ${ADMIN}` } });
      expect(page.body).toContain('<tr class="fail" data-path="description">');
      expect(page.body).toContain('<span class="verdict fail">fail</span>');
    } finally {
      await h.dev('DELETE', '/__emulator/faults');
    }
  }, 60_000);
});
