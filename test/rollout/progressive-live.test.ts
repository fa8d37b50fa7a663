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
import { until } from '../support/until.js';
import { type RecordingUpstream, startRecordingUpstream } from '../support/recording-upstream.js';
import { HAVE_REDIS, type RedisServer, startRedisServer } from '../support/redis-server.js';

const ADMIN = 'admin-token-for-progressive-tests';
const SECOND = 1000;

// groups get: a shadow stage of 20 compared reads, half the callers, then all; 10 s intervals on a test clock.
// The guard is told never to trip, so the analysis alone decides; tolerances wide enough for a few
// dozen reads to decide (40 reads without a difference put its upper bound below 20 %).
const FILE = `stickyBy: header:x-caller
routes:
  - resource: groups
    operations: [get]
    ignore: [createTime, updateTime]
    steps:
      - shadow: 100
        until: { compared: 20 }
      - native: 50
      - native: 100
    analysis:
      interval: 10s
      minSamples: 10
      maxErrorRateIncrease: 0.2
      maxDiffRate: 0.2
      failureLimit: 2
guard:
  maxErrorRate: 1
`;

interface Booked {
  compared: number;
  errors: number;
  skipped: number;
}

interface Progress {
  state: string;
  step: number;
  steps: number;
  failures: number;
  reason: string;
  changedAt: string | null;
  lastAbort: { reason: string; figures: { requests: { native: number } } | null } | null;
  intervals: {
    verdict: string;
    decidedBy: string | null;
    requests: { native: number; translate: number };
    compared: number;
    differed: number;
    checks: { check: string; verdict: string }[];
  }[];
}

function proxyOn(h: EmulatorHarness, file: string, clock: () => number, env: Record<string, string> = {}): Promise<FastifyInstance> {
  const settings = settingsFrom({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, ADMIN_TOKEN: ADMIN, ...env });
  return buildProxyApp(resolveSettings(settings, h.url, 0), { now: clock, watchRollout: false, webhookBackoffMs: 20 });
}

function drive(app: () => FastifyInstance) {
  const admin = (method: 'GET' | 'POST', url: string, body?: object) =>
    app().inject({ method, url, headers: { authorization: `Bearer ${ADMIN}` }, ...(body ? { payload: body } : {}) });
  const progress = async () => (await admin('GET', '/admin/rollout')).json().routes[0].progress as Progress;
  return {
    admin,
    progress,
    /** `n` reads of the tenant's root group by `n` callers; how many the native side served */
    async reads(n: number, from = 0): Promise<{ native: number; statuses: number[] }> {
      let native = 0;
      const statuses: number[] = [];
      for (let i = from; i < from + n; i += 1) {
        const res = await app().inject({
          method: 'GET',
          url: `/iam/v2beta1/groups/${A}`,
          headers: { authorization: `Bearer ${DEV_TOKEN}`, 'x-caller': `c${i}` },
        });
        statuses.push(res.statusCode);
        if (res.headers['x-v2proxy-backend'] === 'native') native += 1;
      }
      return { native, statuses };
    },
    /** waits until `n` shadow reads are booked (compared, or failed: a native circuit still open after a fault); how many were compared */
    async compared(n: number): Promise<number> {
      const booked = await until(
        async () => ((await admin('GET', '/admin/diff.json')).json().routes as Booked[])[0] ?? { compared: 0, errors: 0, skipped: 0 },
        (c) => c.compared + c.errors + c.skipped >= n,
        'shadow reads booked',
      );
      return booked.compared;
    },
  };
}

describe('progressive rollout on the emulator: promoted on healthy traffic, aborted on native failures and on planted differences', () => {
  let h: EmulatorHarness;
  let app: FastifyInstance;
  let hook: RecordingUpstream;
  let clock = Date.parse('2026-06-01T00:00:00Z');
  const d = drive(() => app);
  const tick = (ms: number) => {
    clock += ms;
  };
  // the route's changes (the configuration's start is told too)
  const events = () =>
    hook.requests
      .filter((r) => r.url === '/hooks/rollout')
      .map((r) => JSON.parse(r.body.toString('utf8')))
      .filter((e) => e.action.startsWith('route.'));

  beforeAll(async () => {
    h = await startHarness();
    hook = await startRecordingUpstream();
    // the webhook fails its first delivery: the event comes again after a short backoff
    let first = true;
    hook.respond = () => {
      const status = first ? 500 : 204;
      first = false;
      return { status, body: '' };
    };
    const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-progressive-')), 'rollout.yaml');
    writeFileSync(file, FILE);
    app = await proxyOn(h, file, () => clock, { ROLLOUT_WEBHOOK_URL: `${hook.url}/hooks/rollout` });
  });
  afterAll(async () => {
    await app?.close();
    await hook?.close();
    await h?.close();
  });

  it('walks a healthy route from its shadow stage to 100 %, each step told to the webhook', async () => {
    // the analysis starts the route at its first step by itself
    let p = await until(d.progress, (x) => x.changedAt !== null, 'the route started');
    expect(p).toMatchObject({ state: 'shadowing', step: 1, steps: 3 });
    const shadowStage = await d.reads(40);
    expect(shadowStage.native).toBe(0);
    expect(await d.compared(40)).toBe(40);

    tick(11 * SECOND);
    p = await until(d.progress, (x) => x.step === 2, 'the shadow stage passed');
    expect(p).toMatchObject({ state: 'progressing', failures: 0 });
    expect(p.intervals.at(-1)).toMatchObject({ verdict: 'pass', compared: 40, differed: 0 });

    const half = await d.reads(120);
    expect(half.native).toBeGreaterThanOrEqual(40);
    expect(half.native).toBeLessThan(80);
    expect(half.statuses.every((s) => s === 200)).toBe(true);
    tick(11 * SECOND);
    p = await until(d.progress, (x) => x.state === 'promoted', 'promoted');
    expect(p.step).toBe(3);
    const last = p.intervals.at(-1) as Progress['intervals'][number];
    expect(last).toMatchObject({ verdict: 'pass', requests: { native: half.native, translate: 120 - half.native } });
    // the error check's numbers: both sides' counts, the interval below the tolerance, the method
    expect(last.checks[0]).toMatchObject({
      check: 'maxErrorRateIncrease',
      verdict: 'pass',
      sides: [
        { side: 'native requests', count: half.native, events: 0 },
        { side: 'translated requests', count: 120 - half.native, events: 0 },
      ],
      tolerance: 0.2,
      method: 'Newcombe hybrid score interval',
    });
    expect((await d.reads(10, 100)).native).toBe(10);

    const told = await until(
      async () => events(),
      (e) => e.length >= 3,
      'webhook events',
    );
    // the first delivery (the configuration published at start) was refused (500): it came again
    const all = hook.requests.filter((r) => r.url === '/hooks/rollout').map((r) => r.body.toString('utf8'));
    expect(all[0]).toBe(all[1]);
    expect(JSON.parse(all[0] as string)).toMatchObject({ type: 'rollout.change', action: 'config.published', actor: 'file' });
    const said = (e: { action: string; actor: string; before: { state: string; step: number } | null; after: { state: string; step: number } }) =>
      `${e.action} ${e.before ? `${e.before.state}@${e.before.step}` : '-'} → ${e.after.state}@${e.after.step} by ${e.actor}`;
    expect(told.map(said)).toEqual([
      'route.start - → shadowing@1 by analysis',
      'route.promote shadowing@1 → progressing@2 by analysis',
      'route.promote progressing@2 → promoted@3 by analysis',
    ]);
    expect(told[2]).toMatchObject({
      type: 'rollout.change',
      route: { resource: 'groups', operations: ['get'] },
      actor: 'analysis',
      reason: 'the analysis passed at step 2',
      after: { state: 'promoted', step: 3, native: 100 },
      figures: { verdict: 'pass', requests: { native: half.native } },
    });
    // the webhook (and the audit trail) carry the verdict's numbers
    expect(told[2].figures.checks[0]).toMatchObject({
      check: 'maxErrorRateIncrease',
      verdict: 'pass',
      sides: [{ count: half.native }, { count: 120 - half.native }],
      interval: { low: expect.any(Number), high: expect.any(Number) },
      level: expect.any(Number),
      tolerance: 0.2,
      method: 'Newcombe hybrid score interval',
    });
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^v2proxy_rollout_state\{resource="groups",operations="get",state="promoted"\} 1$/m);
    expect(metrics).toMatch(/^v2proxy_rollout_step\{resource="groups",operations="get"\} 3$/m);
    expect(metrics).toMatch(/^v2proxy_rollout_webhook_total\{outcome="retried"\} 1$/m);
    expect(metrics).toMatch(/^v2proxy_rollout_webhook_total\{outcome="delivered"\} 4$/m);
  });

  it('aborts when the native backend fails (the emulator answers 503) for failureLimit intervals', async () => {
    const refused = await d.admin('POST', '/admin/rollout/routes/groups/get/retry');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 9,
      message: 'Precondition failed: the route cannot retry now: the route is promoted: only an aborted route is retried',
    });
    const aborted = await d.admin('POST', '/admin/rollout/routes/groups/get/abort', { reason: 'starting over' });
    expect(aborted.statusCode, aborted.body).toBe(200);
    expect(aborted.json().progress).toMatchObject({ state: 'aborted', lastAbort: { reason: 'abort by admin: starting over' } });
    expect((await d.admin('POST', '/admin/rollout/routes/groups/get/retry')).json().progress).toMatchObject({ state: 'shadowing', step: 1 });
    expect((await d.admin('POST', '/admin/rollout/routes/groups/get/promote')).json().progress).toMatchObject({ state: 'progressing', step: 2 });

    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/groups', status: 503 }] } });
    try {
      const first = await d.reads(40);
      expect(first.statuses.filter((s) => s === 503)).toHaveLength(first.native);
      tick(11 * SECOND);
      let p = await until(d.progress, (x) => x.failures === 1, 'one failed interval');
      expect(p).toMatchObject({ state: 'progressing', step: 2 });
      expect(p.intervals.at(-1)).toMatchObject({ verdict: 'fail', decidedBy: 'maxErrorRateIncrease' });
      const second = await d.reads(40);
      tick(11 * SECOND);
      p = await until(d.progress, (x) => x.state === 'aborted', 'aborted');
      const native = first.native + second.native;
      expect(p.lastAbort?.reason).toMatch(
        new RegExp(
          `^maxErrorRateIncrease: the interval \\[\\d+(\\.\\d+)? %, 100 %\\] lies wholly above the tolerance 20 % \\(native requests: ${native} of ${native} \\(100 %\\), translated requests: 0 of ${80 - native} \\(0 %\\)\\) in 2 intervals in a row$`,
        ),
      );
      expect(p.lastAbort?.figures?.requests.native).toBeGreaterThanOrEqual(10);
    } finally {
      await h.dev('DELETE', '/__emulator/faults');
    }
    // back to translation for everyone
    expect((await d.reads(20)).native).toBe(0);
  });

  it('aborts when the native answers differ from the translated ones (the emulator plants a field): the diff gate', async () => {
    expect((await d.admin('POST', '/admin/rollout/routes/groups/get/retry', { reason: 'native fixed' })).statusCode).toBe(200);
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/groups', set: { description: 'planted' } }] } });
    try {
      // the native circuit the last test's failures opened closes on the first trial call answered:
      // reads (shadowed again) until it has, or shadows would fail fast for as long as reads are quick
      await until(
        async () => {
          await d.reads(1);
          return (await app.inject({ method: 'GET', url: '/metrics' })).body;
        },
        (metrics) => /^v2proxy_circuit_open\{backend="v2"\} 0$/m.test(metrics),
        'the native circuit closed',
      );
      await d.admin('POST', '/admin/diff/reset');
      await d.reads(25);
      const compared = await d.compared(25);
      expect(compared).toBeGreaterThanOrEqual(20);
      tick(11 * SECOND);
      const p = await until(d.progress, (x) => x.state === 'aborted', 'aborted on differences');
      // every compared read of the step differed (those of the wait for the circuit too)
      const [, differed, of] = /^the step's differences: (\d+) of (\d+) compared reads \(1\) above 0$/.exec(p.lastAbort?.reason ?? '') ?? [];
      expect(Number(differed)).toBeGreaterThanOrEqual(compared);
      expect(differed).toBe(of);
      expect(p.intervals.at(-1)).toMatchObject({ compared: Number(of), differed: Number(of) });
    } finally {
      await h.dev('DELETE', '/__emulator/faults');
    }
    const told = events().map((e) => `${e.after.state}@${e.after.step} by ${e.actor}`);
    expect(told.slice(-6)).toEqual([
      'aborted@3 by admin',
      'shadowing@1 by admin',
      'progressing@2 by admin',
      'aborted@2 by analysis',
      'shadowing@1 by admin',
      'aborted@1 by analysis',
    ]);
  });

  it('refuses what cannot be done, in the one error shape: unknown routes, fixed routes, bad bodies, cross-site posts', async () => {
    const unknown = await d.admin('POST', '/admin/rollout/routes/roles/get/promote');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 5, message: 'Not found: no route roles [get] in the rollout file' });
    const badBody = await d.admin('POST', '/admin/rollout/routes/groups/get/promote', { reason: 42 });
    expect(badBody.statusCode).toBe(400);
    const forged = await app.inject({
      method: 'POST',
      url: '/admin/rollout/routes/groups/get/retry',
      headers: { authorization: `Bearer ${ADMIN}`, origin: 'http://evil.example', host: 'proxy.example' },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().message).toBe('Permission denied: an admin change must come from the admin pages themselves (same origin)');
    expect((await d.progress()).state).toBe('aborted');
    const noToken = await app.inject({ method: 'POST', url: '/admin/rollout/routes/groups/get/retry' });
    expect(noToken.statusCode).toBe(401);
  });
});

// Skipped only where no redis-server binary exists (a developer machine); CI installs it.
describe.skipIf(!HAVE_REDIS)('progressive rollout with Redis: one state for the fleet, kept across restarts', () => {
  let h: EmulatorHarness;
  let redis: RedisServer;
  let file: string;
  let clock = Date.parse('2026-06-01T00:00:00Z');

  beforeAll(async () => {
    h = await startHarness();
    redis = await startRedisServer();
    file = join(mkdtempSync(join(tmpdir(), 'v2proxy-progressive-redis-')), 'rollout.yaml');
    writeFileSync(file, FILE);
  });
  afterAll(async () => {
    await redis?.stop();
    await h?.close();
  });

  it('a route moved on one replica is at the same step on another, and after both restart, with its intervals', async () => {
    const env = { REDIS_URL: redis.url };
    let one = await proxyOn(h, file, () => clock, env);
    let two = await proxyOn(h, file, () => clock, env);
    const d1 = drive(() => one);
    const d2 = drive(() => two);
    try {
      await until(d1.progress, (x) => x.changedAt !== null, 'the route started');
      // shadow reads through both replicas: the interval is judged on the fleet's counts
      await d1.reads(20);
      await d2.reads(20, 20);
      await until(
        async () => ((await d1.admin('GET', '/admin/diff.json')).json().routes as { compared: number }[])[0]?.compared ?? 0,
        (c) => c >= 40,
        'the fleet compared the shadow reads',
      );
      clock += 11 * SECOND;
      const moved = await until(d2.progress, (x) => x.step === 2, 'the fleet moved the route');
      expect(moved.intervals.at(-1)).toMatchObject({ verdict: 'pass', compared: 40 });
      expect(await until(d1.progress, (x) => x.step === 2, 'the other replica follows')).toMatchObject({ state: 'progressing' });
      expect((await d1.admin('GET', '/admin/rollout')).json().progressive.store).toBe('redis');
      expect((await d2.admin('POST', '/admin/rollout/routes/groups/get/pause', { reason: 'over the weekend' })).statusCode).toBe(200);
      await until(d1.progress, (x) => x.state === 'paused', 'the pause reached the other replica');
    } finally {
      await one.close();
      await two.close();
    }
    one = await proxyOn(h, file, () => clock, env);
    two = await proxyOn(h, file, () => clock, env);
    try {
      for (const d of [d1, d2]) {
        const p = await d.progress();
        expect(p).toMatchObject({ state: 'paused', step: 2, reason: 'pause by admin: over the weekend' });
        expect(p.intervals).toHaveLength(1);
      }
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('while Redis is stalled the fleet serves at the step it applied and loses no count; once it answers, the interval is judged', async () => {
    // a Redis of its own: this route starts afresh
    const stalled = await startRedisServer();
    const one = await proxyOn(h, file, () => clock, { REDIS_URL: stalled.url });
    const d = drive(() => one);
    try {
      await until(d.progress, (x) => x.changedAt !== null, 'the route started');
      expect((await d.admin('POST', '/admin/rollout/routes/groups/get/promote')).statusCode).toBe(200);
      const at = await d.progress();
      expect(at).toMatchObject({ state: 'progressing', step: 2 });
      stalled.pause();
      let served: { native: number; statuses: number[] };
      try {
        served = await d.reads(120);
        // half the callers still on the native side, every answer a good one
        expect(served.statuses.every((s) => s === 200)).toBe(true);
        expect(served.native).toBeGreaterThanOrEqual(40);
        clock += 11 * SECOND;
        // nothing can be judged meanwhile: the state is the one applied
        expect(await d.progress()).toMatchObject({ state: 'progressing', step: 2, intervals: at.intervals });
      } finally {
        stalled.resume();
      }
      const p = await until(d.progress, (x) => x.state === 'promoted', 'judged once Redis answers', 15_000);
      // the interval's counts are the ones made while Redis was stalled
      expect(p.intervals.at(-1)).toMatchObject({ verdict: 'pass', requests: { native: served.native, translate: 120 - served.native } });
    } finally {
      await one.close();
      await stalled.stop();
    }
  }, 30_000);
});
