import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { CHROMIUM, HAVE_CHROMIUM } from '../support/headless-chromium.js';

// Skipped only on a developer machine without Chromium (headless-chromium.ts); CI always runs it.
describe.skipIf(!HAVE_CHROMIUM)('the API reference page (/docs) in a real browser', () => {
  let env: ProxyOnEmulator;
  let browser: Browser;
  beforeAll(async () => {
    env = await startProxyOnEmulator();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  it('renders every operation and schema of /openapi.json, self-contained and under its CSP, at 1280 px and on a narrow window', async () => {
    const doc = (await (await fetch(`${env.proxy.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
      components: { schemas: object };
    };
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const p = await context.newPage();
      const requested: string[] = [];
      const violations: string[] = [];
      p.on('request', (r) => requested.push(r.url()));
      p.on('console', (m) => m.type() === 'error' && violations.push(m.text()));
      const res = await p.goto(`${env.proxy.url}/docs`);
      expect(res?.status()).toBe(200);
      expect(res?.headers()['content-security-policy']).toMatch(/^default-src 'none'; style-src 'unsafe-inline';/);
      expect(await p.title()).toBe('Platform API v2beta1, as v2proxy serves it');
      expect(await p.locator('section.op').evaluateAll((s) => s.map((e) => e.id))).toEqual(operations);
      expect(await p.locator('section.schema').count()).toBe(Object.keys(doc.components.schemas).length);
      expect(await p.locator('#get_groups h3').innerText()).toBe('GET /iam/v2beta1/groups/{uid}');
      expect(await p.locator('#list_groups').innerText()).toMatch(/page_size\s+query\s+integer \(int32\) 0–200/);
      // a schema link leads to its section
      await p.locator('#get_groups a[href="#chainguard.platform.iam.v2beta1.Group"]').first().click();
      expect(await p.evaluate('location.hash')).toBe('#chainguard.platform.iam.v2beta1.Group');
      expect(requested.every((u) => u.startsWith(env.proxy.url))).toBe(true);
      expect(violations).toEqual([]);
      expect(await p.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await context.close();
    }
  });
});
