import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningDemo } from '../../src/commands/demo.js';
import { call } from '../support/emulator-harness.js';
import { DEV_TOKEN } from '../support/fixtures.js';
import { startDemo } from '../support/proxy-harness.js';
import { CHROMIUM, HAVE_CHROMIUM } from '../support/headless-chromium.js';

const ADMIN = 'admin-token-for-the-browser';

// Skipped only on a developer machine without Chromium (headless-chromium.ts); CI always runs it.
describe.skipIf(!HAVE_CHROMIUM)('the diff report in a real browser', () => {
  let proxy: RunningDemo;
  let browser: Browser;
  let requestId = '';

  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-page-')), 'rollout.yaml');
    writeFileSync(
      file,
      'routes:\n  - resource: groups\n    operations: [get]\n    shadow: 100\n    ignore: [createTime, updateTime]\n' +
        '  - resource: tags\n    operations: [list]\n    shadow: 100\n',
    );
    proxy = await startDemo({ ROLLOUT_FILE: file, ADMIN_TOKEN: ADMIN, DEV_TOKEN });
    const emu = proxy.emulator;
    await call(emu.url, 'POST', '/__emulator/faults', {
      token: DEV_TOKEN,
      body: { rules: [{ prefix: '/iam/v2beta1/groups', set: { description: 'planted' } }] },
    });
    const got = await call(proxy.url, 'GET', `/iam/v2beta1/groups/${emu.demoOrg}`, { token: DEV_TOKEN });
    requestId = got.headers.get('x-request-id') ?? '';
    await call(proxy.url, 'GET', '/registry/v2beta1/tags', { token: DEV_TOKEN });
    const deadline = Date.now() + 8000;
    for (;;) {
      const routes = (await call(proxy.url, 'GET', '/admin/diff.json', { token: ADMIN })).body.routes as { compared: number }[];
      if (routes.length === 2 && routes.every((r) => r.compared === 1)) break;
      if (Date.now() > deadline) throw new Error('shadows did not settle');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
  });

  it('shows route rows, a differing field with its verdict and its samples, with no external assets', async () => {
    // as a person would: the browser's login prompt, any user name, the admin token as password
    const context = await browser.newContext({ httpCredentials: { username: 'admin', password: ADMIN } });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    const res = await page.goto(`${proxy.url}/admin/diff`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('v2proxy: translation vs native');

    // the summary: one row per route, the differing route first
    const rows = page.locator('table.summary tbody tr');
    expect(await rows.count()).toBe(2);
    expect((await rows.nth(0).innerText()).split('\t').slice(0, 5)).toEqual(['groups', 'get', '1', '0', '1']);
    expect((await rows.nth(1).innerText()).split('\t').slice(0, 5)).toEqual(['tags', 'list', '1', '1', '0']);

    // the differing field of the groups route with its verdict (one read: too few to decide), and its sample behind a click
    const field = page.locator('section[data-route="groups get"] tr.inconclusive[data-path="description"]');
    await expect.poll(() => field.isVisible()).toBe(true);
    expect(await field.innerText()).toMatch(
      /description\s+value\s+1\s+0\s+inconclusive 1 of the 200 compared reads needed \(the minimum per side\); about 199 more reads would decide it/,
    );
    const sample = field.locator('table.samples');
    expect(await sample.isVisible()).toBe(false);
    await field.locator('summary').click();
    expect(await sample.isVisible()).toBe(true);
    expect(await sample.innerText()).toContain(requestId);
    expect(await page.locator('section[data-route="tags list"]').innerText()).toContain('No differences.');

    await page.screenshot({ path: join(tmpdir(), 'v2proxy-diff-page.png'), fullPage: true });
    expect(new Set(requested)).toEqual(new Set([`${proxy.url}/admin/diff`]));
    await context.close();
  });

  it('does not open without the admin token, nor with a wrong one', async () => {
    for (const httpCredentials of [undefined, { username: 'admin', password: 'not-the-admin-token' }]) {
      const context = await browser.newContext(httpCredentials ? { httpCredentials } : {});
      const page = await context.newPage();
      // the proxy asks for a login (WWW-Authenticate: Basic): a headless browser without one gives up,
      // one with a wrong one is shown the 401; either way no report
      const res = await page.goto(`${proxy.url}/admin/diff`).catch((err: Error) => err);
      if (res instanceof Error) expect(res.message).toMatch(/ERR_INVALID_AUTH_CREDENTIALS/);
      else {
        expect(res?.status()).toBe(401);
        const text = (await res?.text()) ?? '';
        expect(text).toContain('UNAUTHENTICATED');
        expect(text).not.toContain('data-route');
      }
      await context.close();
    }
  });
});
