import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/load-settings.js';
import { buildProxyApp } from '../../src/app/build-proxy-app.js';
import { type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, DEV_TOKEN } from '../support/fixtures.js';
import { settingsFrom } from '../support/proxy-harness.js';
import { until } from '../support/until.js';
import { CHROMIUM, HAVE_CHROMIUM } from '../support/headless-chromium.js';

const ADMIN = 'admin-token-for-the-console';

// groups get at half native with every read compared (its intervals give the charts; too few reads
// to decide, it waits), tags list untouched, roles list fixed at native and rolled back once by the guard
const FILE = `stickyBy: header:x-caller
routes:
  - resource: groups
    operations: [get]
    shadow: 100
    ignore: [createTime, updateTime]
    steps:
      - native: 50
        pause: 1h
      - native: 100
    analysis: { interval: 10s, minSamples: 5 }
  - resource: tags
    operations: [list]
    steps:
      - shadow: 100
      - native: 100
  - resource: roles
    operations: [list]
    native: 100
guard:
  windowSeconds: 30
  minRequests: 5
  maxErrorRate: 0.5
  cooldownSeconds: 60
`;

// Skipped only on a developer machine without Chromium (headless-chromium.ts); CI always runs it.
describe.skipIf(!HAVE_CHROMIUM)('the console in a real browser', () => {
  let h: EmulatorHarness;
  let app: FastifyInstance;
  let url = '';
  let browser: Browser;
  let elsewhere: Server;
  let clock = Date.parse('2026-06-01T00:00:00Z');

  const admin = async (method: string, path: string) => {
    const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN}` } });
    return res.json() as Promise<Record<string, unknown>>;
  };
  const route = async (resource: string) =>
    ((await admin('GET', '/admin/rollout')).routes as { resource: string; progress: { state: string; step: number; reason: string } | null }[]).find(
      (r) => r.resource === resource,
    )?.progress;
  const page = async (width: number): Promise<Page> => {
    const context = await browser.newContext({ httpCredentials: { username: 'admin', password: ADMIN }, viewport: { width, height: 900 } });
    return context.newPage();
  };

  beforeAll(async () => {
    h = await startHarness();
    const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-console-')), 'rollout.yaml');
    writeFileSync(file, FILE);
    const settings = settingsFrom({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, ADMIN_TOKEN: ADMIN });
    app = await buildProxyApp(resolveSettings(settings, h.url, 0), { now: () => clock, watchRollout: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await until(
      () => route('groups'),
      (p) => p?.reason.startsWith('started') === true,
      'the routes started',
    );
    // two intervals of traffic on groups: both sides served, every read compared
    for (const round of [0, 1]) {
      for (let i = 0; i < 20; i += 1) {
        await fetch(`${url}/iam/v2beta1/groups/${A}`, { headers: { authorization: `Bearer ${DEV_TOKEN}`, 'x-caller': `c${i}` } });
      }
      await until(
        async () => ((await admin('GET', '/admin/diff.json')).routes as { compared: number; errors: number }[])[0],
        (r) => r !== undefined && r.compared + r.errors >= 20 * (round + 1),
        'shadows booked',
      );
      clock += 11_000;
      await until(
        async () => ((await admin('GET', '/admin/rollout')).routes as { progress: { intervals: unknown[] } }[])[0]?.progress.intervals.length,
        (n) => n === round + 1,
        'the interval judged',
      );
    }
    // the native roles list fails: the guard rolls it back, and its cooldown is over a minute later
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/roles', status: 500 }] } });
    for (let i = 0; i < 6; i += 1) await fetch(`${url}/iam/v2beta1/roles?parent=${A}`, { headers: { authorization: `Bearer ${DEV_TOKEN}` } });
    await until(
      async () => ((await admin('GET', '/admin/rollout')).routes as { resource: string; rolledBack: boolean }[]).find((r) => r.resource === 'roles'),
      (r) => r?.rolledBack === true,
      'the guard rolled roles back',
    );
    await h.dev('DELETE', '/__emulator/faults');
    clock += 61_000;
    // another site, for the forged request
    elsewhere = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<form id="f" method="POST" action="${url}/admin/rollout/routes/groups/get/abort"></form><script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => elsewhere?.close(resolve));
    await app?.close();
    await h?.close();
  });

  it('without the login, nothing: 401 and no route named', async () => {
    // a headless browser has no login prompt to show: the challenge ends the navigation
    const context = await browser.newContext();
    const p = await context.newPage();
    await expect(p.goto(`${url}/admin`)).rejects.toThrow(/ERR_INVALID_AUTH_CREDENTIALS/);
    await context.close();
    const res = await fetch(`${url}/admin`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(await res.text()).not.toContain('groups');
    const wrong = await fetch(`${url}/admin`, { headers: { authorization: `Basic ${Buffer.from('admin:not-the-token').toString('base64')}` } });
    expect(wrong.status).toBe(401);
  });

  it('shows each route with its state, step, share and charts, self-contained, at 1280 px and on a narrow window', async () => {
    for (const width of [1280, 375]) {
      const p = await page(width);
      const requested: string[] = [];
      p.on('request', (r) => requested.push(r.url()));
      const res = await p.goto(`${url}/admin`);
      expect(res?.status()).toBe(200);
      expect(res?.headers()['content-security-policy']).toMatch(/default-src 'none'/);
      expect(await p.title()).toBe('v2proxy console');
      const groups = p.locator('section[data-route="groups/get"]');
      // too few reads to decide: the analysis waits, which reads apart from an operator's pause
      expect(await groups.locator('.state').innerText()).toBe('waiting');
      expect(await groups.locator('.reason').innerText()).toMatch(
        /^Waiting for the analysis to decide \(not an operator's pause\): maxErrorRateIncrease: waiting: the interval/,
      );
      expect(await groups.locator('.step').innerText()).toBe('step 1 of 2');
      expect(await groups.innerText()).toMatch(/native 50 %/);
      // each check's latest verdict with its numbers
      const check = groups.locator('ul.checks li[data-check="maxErrorRateIncrease"]');
      expect(await check.innerText()).toMatch(
        /^maxErrorRateIncrease inconclusive: native error rate − translated error rate 0 %; fail judged on \[-\d+(\.\d+)? %, \d+(\.\d+)? %\] at \d+(\.\d+)? % \(look \d+\); pass judged on \[-\d+(\.\d+)? %, \d+(\.\d+)? %\] at 98 %; tolerance 0\.5 %\nNewcombe hybrid score interval: native requests: \d+ of \d+ \(0 %\), translated requests: \d+ of \d+ \(0 %\)$/,
      );
      // the intervals, drawn: error rate and p99 of both sides, diff rate
      expect(await groups.locator('figure[data-chart="p99 latency"] polyline').count()).toBe(2);
      expect(await groups.locator('figure[data-chart="error rate"] polyline').count()).toBe(2);
      expect(await groups.locator('figure[data-chart="diff rate"] polyline').count()).toBe(1);
      // a route nobody reads: waiting for traffic
      expect(await p.locator('section[data-route="tags/list"] .state').innerText()).toBe('waiting');
      expect(await p.locator('section[data-route="tags/list"] .reason').innerText()).toMatch(/waiting for traffic: fewer than 200 compared reads in the step$/);
      // the guard's rollback of roles, over: its cause and its end stay shown
      const roles = p.locator('section[data-route="roles/list"]');
      expect(await roles.innerText()).toMatch(/fixed share native 100 % of callers/);
      expect(await roles.locator('.rollback').innerText()).toMatch(/^Last rollback by the guard at \S+Z: .*; ended \S+Z\.$/);
      // every resource's operations, routed or not, with the fleet's served counts, error rates and p99 per side
      const traffic = (what: string) => p.locator(`table.traffic tr[data-traffic="${what}"]`).innerText();
      expect(await traffic('groups get')).toMatch(
        /^groups\s+get\s+groups\|get\s+50 %\s+50 %\s+(\d+)\s+(\d+)\s+0\.00 %\s+0\.00 %\s+[\d.]+ ms\s+[\d.]+ ms\s+diffs$/,
      );
      const [, translated, native] = /(\d+)\s+(\d+)\s+0\.00 %/.exec(await traffic('groups get')) ?? [];
      expect(Number(translated) + Number(native)).toBe(40);
      // five native failures trip the guard (the sixth read is translated once it has)
      expect(await traffic('roles list')).toMatch(/^roles\s+list\s+roles\|list\s+100 %\s+100 %\s+(0\s+6\s+–|1\s+5\s+0\.00 %)\s+100\.00 %/);
      expect(await traffic('identities list')).toMatch(/^identities\s+list\s+none: translated\s+0 %\s+0 %\s+0\s+0\s+–\s+–/);
      expect(await p.locator('.kill').innerText()).toMatch(/Kill switch off/);
      expect(await p.locator('a[href="/admin/diff"]').count()).toBe(1);
      // nothing from elsewhere, nothing wider than the window
      expect(requested.every((u) => u.startsWith(url))).toBe(true);
      expect(await p.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await p.screenshot({ path: join(tmpdir(), `v2proxy-console-${width}.png`), fullPage: true });
      await p.context().close();
    }
  });

  it('after a retry a route keeps its charts; the diff report is linked both ways, shows its window, statuses plainly and a failed side as an error, and resets', async () => {
    const p = await page(1280);
    await p.goto(`${url}/admin`);
    await fetch(`${url}/admin/rollout/routes/groups/get/abort`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } });
    await p.reload();
    await Promise.all([p.waitForEvent('load'), p.locator('section[data-route="groups/get"] button[data-action="retry"]').click()]);
    const groups = p.locator('section[data-route="groups/get"]');
    expect(await groups.locator('.state').innerText()).toBe('progressing');
    expect(await groups.locator('figure[data-chart="error rate"] polyline').count()).toBe(2);

    // a status the native side answers differently, then a native side that fails (each fault held until its shadows are booked)
    const booked = (n: number) =>
      until(
        async () => ((await admin('GET', '/admin/diff.json')).routes as { compared: number; errors: number }[])[0],
        (r) => r !== undefined && r.compared + r.errors >= n,
        'shadows booked',
      );
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/groups', status: 404 }] } });
    for (let i = 0; i < 4; i += 1) await fetch(`${url}/iam/v2beta1/groups/${A}`, { headers: { authorization: `Bearer ${DEV_TOKEN}`, 'x-caller': `t${i}` } });
    await booked(44);
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/groups', status: 503 }] } });
    for (let i = 0; i < 4; i += 1) await fetch(`${url}/iam/v2beta1/groups/${A}`, { headers: { authorization: `Bearer ${DEV_TOKEN}`, 'x-caller': `u${i}` } });
    const before = (await booked(48)) as { compared: number; errors: number };
    await h.dev('DELETE', '/__emulator/faults');

    // from the traffic table to the route's diffs, and back
    await Promise.all([p.waitForURL(/\/admin\/diff#diff-groups-get$/), p.locator('tr[data-traffic="groups get"] a').click()]);
    const section = p.locator('section#diff-groups-get');
    expect(await section.isVisible()).toBe(true);
    expect(await p.locator('.window').innerText()).toMatch(
      /^Showing since the last reset \(\S+Z\); show the last hour or the last 15 minutes · console · reset: start a new report/,
    );
    expect(await section.locator('p.counts').innerText()).toBe(
      `${before.compared} compared, 0 noise reads, ${before.errors} errors (a side that failed: not compared)`,
    );
    expect(before.errors).toBe(4);
    // the status: shown as it is, not hashed
    const status = section.locator('tr[data-path="status"]');
    await status.locator('summary').click();
    expect(await status.locator('table.samples').innerText()).toMatch(/\t200\t404/);
    expect(await section.locator('a.back').getAttribute('href')).toBe('/admin#traffic-groups-get');

    // the last 15 minutes: every read of this test was booked in them
    await Promise.all([p.waitForURL(/\/admin\/diff\?window=15m$/), p.locator('a[data-window="15m"]').click()]);
    expect(await p.locator('.window .shown').innerText()).toBe('the last 15 minutes');
    expect(await p.locator('section#diff-groups-get p.counts').innerText()).toBe(
      `${before.compared} compared, 0 noise reads, ${before.errors} errors (a side that failed: not compared)`,
    );
    const wrong = await fetch(`${url}/admin/diff.json?window=2d`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect([wrong.status, ((await wrong.json()) as { message: string }).message]).toEqual([400, expect.stringContaining('window: not a valid value')]);
    await Promise.all([p.waitForEvent('load'), p.locator('button#reset').click()]);
    expect(await p.locator('body').innerText()).toContain('No shadowed or replayed requests yet.');
    await Promise.all([p.waitForURL(/\/admin#traffic-groups-get$/), p.goBack().then(() => p.goto(`${url}/admin#traffic-groups-get`))]);
    expect(await p.locator('tr#traffic-groups-get').isVisible()).toBe(true);
    await p.context().close();
  });

  it('a person pauses a route, aborts another with a reason, and pulls the kill switch; a forged post from another site changes nothing', async () => {
    const p = await page(1280);
    await p.goto(`${url}/admin`);
    await Promise.all([p.waitForEvent('load'), p.locator('section[data-route="groups/get"] button[data-action="pause"]').click()]);
    // an operator's pause reads as one
    expect(await p.locator('section[data-route="groups/get"] .state').innerText()).toBe('paused');
    expect((await route('groups'))?.state).toBe('paused');

    p.once('dialog', (dialog) => void dialog.accept('native answers look wrong'));
    await Promise.all([p.waitForEvent('load'), p.locator('section[data-route="tags/list"] button[data-action="abort"]').click()]);
    const tags = p.locator('section[data-route="tags/list"]');
    expect(await tags.locator('.state').innerText()).toBe('aborted');
    expect(await tags.locator('.abort').innerText()).toContain('abort by admin: native answers look wrong');
    expect(await tags.locator('button').allInnerTexts()).toEqual(['retry']);
    expect((await route('tags'))?.state).toBe('aborted');
    // the last changes, newest first, with who made them
    expect(await p.locator('.who').innerText()).toBe('signed in as admin (admin)');
    const changes = p.locator('table.audit tbody tr');
    expect(await changes.nth(0).innerText()).toMatch(/admin\s+route\.abort\s+tags list\s+abort by admin: native answers look wrong/);
    expect(await changes.nth(1).innerText()).toMatch(/admin\s+route\.pause\s+groups get/);

    p.once('dialog', (dialog) => void dialog.accept(''));
    await Promise.all([p.waitForEvent('load'), p.locator('button[data-action="kill-on"]').click()]);
    expect(await p.locator('.kill').innerText()).toMatch(/Kill switch on/);
    expect((await admin('GET', '/admin/rollout')).killSwitch).toBe(true);
    await Promise.all([p.waitForEvent('load'), p.locator('button[data-action="kill-off"]').click()]);
    expect((await admin('GET', '/admin/rollout')).killSwitch).toBe(false);

    // a page of another site posts a form to the admin API with the login the browser keeps: refused
    const forged = await p.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`);
    expect(forged?.status()).toBe(200);
    await p.waitForURL(/\/admin\/rollout\/routes\/groups\/get\/abort$/);
    expect(await p.content()).toContain('an admin change must come from the admin pages themselves');
    expect((await route('groups'))?.state).toBe('paused');
    await p.context().close();
  });
});
