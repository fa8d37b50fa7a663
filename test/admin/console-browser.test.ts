import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/load-settings.js';
import { buildProxyApp } from '../../src/server/build-proxy-app.js';
import { type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, DEV_TOKEN } from '../support/fixtures.js';
import { settingsFrom } from '../support/proxy-harness.js';
import { until } from '../support/until.js';

const ADMIN = 'admin-token-for-the-console';
// Debian's chromium, installed by .ci/run; elsewhere CHROMIUM_PATH names one
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM && process.env.CI) throw new Error(`CI must have a headless Chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)`);

// groups get at half native with every read compared (its intervals give the charts), tags list untouched, roles fixed
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
    analysis: { interval: 10s, minRequests: 5 }
  - resource: tags
    operations: [list]
    steps:
      - shadow: 100
      - native: 100
  - resource: roles
    native: 0
`;

// Skipped only on a developer machine without Chromium (reason above); CI always runs it.
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
      expect(await groups.locator('.state').innerText()).toBe('progressing');
      expect(await groups.locator('.step').innerText()).toBe('step 1 of 2');
      expect(await groups.innerText()).toMatch(/native 50 %/);
      // the two intervals, drawn: error rate, p99 of both sides, diff rate
      expect(await groups.locator('figure[data-chart="p99 latency"] polyline').count()).toBe(2);
      expect(await groups.locator('figure[data-chart="native error rate"] polyline').count()).toBe(1);
      expect(await groups.locator('figure[data-chart="diff rate"] polyline').count()).toBe(1);
      expect(await p.locator('section[data-route="tags/list"] .state').innerText()).toBe('shadowing');
      expect(await p.locator('section[data-route="roles/list,get,create,update,delete"]').innerText()).toMatch(/fixed share/);
      expect(await p.locator('.kill').innerText()).toMatch(/Kill switch off/);
      expect(await p.locator('a[href="/admin/diff"]').count()).toBe(1);
      // nothing from elsewhere, nothing wider than the window
      expect(requested.every((u) => u.startsWith(url))).toBe(true);
      expect(await p.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await p.screenshot({ path: join(tmpdir(), `v2proxy-console-${width}.png`), fullPage: true });
      await p.context().close();
    }
  });

  it('a person pauses a route, aborts another with a reason, and pulls the kill switch; a forged post from another site changes nothing', async () => {
    const p = await page(1280);
    await p.goto(`${url}/admin`);
    await Promise.all([p.waitForEvent('load'), p.locator('section[data-route="groups/get"] button[data-action="pause"]').click()]);
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
