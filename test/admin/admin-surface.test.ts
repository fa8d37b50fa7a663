// The admin surface apart: its own listener (ADMIN_PORT), the headers its pages and every body
// from a backend carry, the audit trail of a single replica, the console per role, and no admin
// API at all for a fleet without configured operators.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, serveBanner } from '../../src/commands/serve.js';
import { call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, TOKENS } from '../support/fixtures.js';
import { LogCapture, startProxy } from '../support/proxy-harness.js';
import { HAVE_REDIS, startRedisServer } from '../support/redis-server.js';

const OPERATORS = 'ann:admin:ann-token-0123456789abcdef,oli:operator:oli-token-0123456789abcdef,val:viewer:val-token-0123456789abcdef';
const TOKEN = { ann: 'ann-token-0123456789abcdef', oli: 'oli-token-0123456789abcdef', val: 'val-token-0123456789abcdef' };
const FILE =
  'routes:\n  - resource: groups\n    operations: [get]\n    native: 100\n  - resource: tags\n    operations: [list]\n    steps:\n      - native: 10\n      - native: 100\n    analysis: { interval: 1h }\n';

describe('the admin surface', () => {
  let h: EmulatorHarness;
  let file: string;
  beforeAll(async () => {
    h = await startHarness();
    file = join(mkdtempSync(join(tmpdir(), 'v2proxy-admin-')), 'rollout.yaml');
    writeFileSync(file, FILE);
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('on the API port (no ADMIN_PORT)', () => {
    let proxy: RunningProxy;
    const logs = new LogCapture();
    // a native backend URL with credentials, a query and a fragment: none of them is ever shown
    const credentialed = () => {
      const u = new URL(h.v2url);
      return `http://native-user:native-password@${u.host}${u.pathname.replace(/\/$/, '')}?api_key=query-secret#fragment-secret`;
    };
    beforeAll(async () => {
      proxy = await startProxy({ V1_BASE_URL: h.url, V2_BASE_URL: credentialed(), ROLLOUT_FILE: file, ADMIN_TOKENS: OPERATORS, LOG_LEVEL: 'info' }, logs);
    });
    afterAll(async () => {
      await proxy?.close();
    });

    it('its pages carry a CSP that no other site may frame, nosniff on every answer; bodies from a backend carry nosniff too', async () => {
      for (const path of ['/admin', '/admin/diff']) {
        const res = await call(proxy.url, 'GET', path, { token: TOKEN.val });
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-security-policy'), path).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
        expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(res.headers.get('cache-control'), path).toBe('no-store');
      }
      for (const path of ['/admin/rollout', '/admin/audit', '/admin/diff.json']) {
        expect((await call(proxy.url, 'GET', path, { token: TOKEN.val })).headers.get('x-content-type-options'), path).toBe('nosniff');
      }
      // a refusal too
      expect((await call(proxy.url, 'GET', '/admin/rollout')).headers.get('x-content-type-options')).toBe('nosniff');
      // what a backend sends: a v1 read passed through, a native answer, a v1 write passed through
      const v1 = await call(proxy.url, 'GET', `/iam/v1/groups?id=${A}`, { token: TOKENS.alice });
      const native = await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice });
      const write = await call(proxy.url, 'POST', `/iam/v1/groups/${A}`, { token: TOKENS.alice, body: { name: 'passed-through' } });
      expect(native.headers.get('x-v2proxy-backend')).toBe('native');
      for (const res of [v1, native, write]) expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it("the native backend's URL is shown without its credentials, query or fragment: status, console, banner, logs, metrics", async () => {
      const status = await call(proxy.url, 'GET', '/admin/rollout', { token: TOKEN.val });
      expect(status.body.nativeBackend).toBe(`http://${new URL(h.v2url).host}`);
      const text = async (path: string) => JSON.stringify((await call(proxy.url, 'GET', path, { token: TOKEN.val })).body);
      const shown = [
        JSON.stringify(status.body),
        await text('/admin'),
        await text('/admin/fleet'),
        await text('/metrics'),
        serveBanner(proxy).join('\n'),
        logs.text,
      ].join('\n');
      for (const secret of ['native-user', 'native-password', 'query-secret', 'fragment-secret']) expect(shown).not.toContain(secret);
    });

    it('a single replica keeps its audit trail in memory; the console shows it, and each role only the buttons it may use', async () => {
      expect((await call(proxy.url, 'POST', '/admin/rollout/kill', { token: TOKEN.oli, body: { reason: 'checking' } })).status).toBe(200);
      expect((await call(proxy.url, 'POST', '/admin/rollout/resume', { token: TOKEN.oli })).status).toBe(200);
      const records = (await call(proxy.url, 'GET', '/admin/audit?actor=oli', { token: TOKEN.val })).body.records;
      expect(records.map((r: { action: string }) => r.action)).toEqual(['kill-switch.off', 'kill-switch.on']);
      expect(records[1]).toMatchObject({ actor: 'oli', reason: 'checking', before: { killSwitch: false }, after: { killSwitch: true } });
      expect((await call(proxy.url, 'GET', '/admin/audit?limit=0', { token: TOKEN.val })).status).toBe(400);
      expect((await call(proxy.url, 'GET', '/admin/audit?route=<script>', { token: TOKEN.val })).status).toBe(400);
      const page = async (who: keyof typeof TOKEN) => (await call(proxy.url, 'GET', '/admin', { token: TOKEN[who] })).body as string;
      const buttons = (html: string) => [...html.matchAll(/data-action="([a-z-]+)"/g)].map((m) => m[1]).sort();
      expect(buttons(await page('val'))).toEqual([]);
      expect(buttons(await page('oli'))).toEqual(['abort', 'kill-on', 'pause']);
      expect(buttons(await page('ann'))).toEqual(['abort', 'kill-on', 'pause', 'promote']);
      const annPage = await page('ann');
      expect(annPage).toContain('signed in as <strong>ann</strong> (admin)');
      // a promotion above the file's approvals share waits, on the console too
      writeFileSync(file, `approvals: { nativeAbove: 50 }\n${FILE}`);
      expect((await call(proxy.url, 'POST', '/admin/rollout/reload', { token: TOKEN.oli })).status).toBe(200);
      expect((await call(proxy.url, 'POST', '/admin/rollout/routes/tags/list/promote', { token: TOKEN.ann, body: { reason: 'looks good' } })).status).toBe(202);
      expect(await page('val')).toMatch(/promote to native 100 % asked by <strong>ann<\/strong> \([^)]*: looks good\): waiting for a second operator/);
      expect(await page('ann')).toContain('another operator must approve it');
      writeFileSync(file, FILE);
      expect((await call(proxy.url, 'POST', '/admin/rollout/reload', { token: TOKEN.oli })).status).toBe(200);
      expect(annPage).toMatch(/<tr data-action="kill-switch.off"><td>[^<]+<\/td><td><strong>oli<\/strong>/);
    });
  });

  describe('commands of a single replica (the control state in memory)', () => {
    let proxy: RunningProxy;
    beforeAll(async () => {
      proxy = await startProxy({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, ADMIN_TOKENS: OPERATORS });
    });
    afterAll(async () => {
      await proxy?.close();
    });
    const post = (path: string, headers: Record<string, string>, body: object = {}) => call(proxy.url, 'POST', path, { token: TOKEN.ann, headers, body });

    it('a keyed command applies once and its repeat is answered from its record (a waiting promote as 202 again); a stale If-Match or fromStep is 409', async () => {
      const kill = await post('/admin/rollout/kill', { 'idempotency-key': 'k' }, { reason: 'once' });
      const again = await post('/admin/rollout/kill', { 'idempotency-key': 'k' }, { reason: 'once' });
      expect([kill.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
      expect((await post('/admin/rollout/resume', { 'idempotency-key': 'r' })).body.killSwitch).toBe(false);
      // the first kill's repeat moves nothing now
      expect((await post('/admin/rollout/kill', { 'idempotency-key': 'k' }, { reason: 'once' })).body.killSwitch).toBe(false);
      const trail = (await call(proxy.url, 'GET', '/admin/audit?actor=ann', { token: TOKEN.val })).body.records.map((r: { action: string }) => r.action);
      expect(trail.filter((a: string) => a === 'kill-switch.on')).toHaveLength(1);
      // a malformed key or If-Match is refused by name
      expect((await post('/admin/rollout/kill', { 'idempotency-key': 'with space' })).body.details[1].fieldViolations[0].field).toBe('Idempotency-Key');
      expect((await post('/admin/rollout/kill', { 'if-match': '"<nope>"' })).body.details[1].fieldViolations[0].field).toBe('If-Match');
      const seen = await call(proxy.url, 'GET', '/admin/rollout', { token: TOKEN.val });
      const step = seen.body.routes.find((r: { resource: string }) => r.resource === 'tags').progress.step as number;
      const stale = await post('/admin/rollout/routes/tags/list/pause', { 'if-match': '"0"' });
      expect([stale.status, stale.body.code]).toEqual([409, 10]);
      expect((await post('/admin/rollout/routes/tags/list/pause', {}, { fromStep: step + 1 })).status).toBe(409);
      const paused = await post('/admin/rollout/routes/tags/list/pause', { 'if-match': seen.headers.get('etag') as string }, { fromStep: step });
      expect([paused.status, paused.body.progress.state]).toEqual([200, 'paused']);
      // fromStep belongs to route commands
      expect((await post('/admin/rollout/kill', {}, { fromStep: 1 })).status).toBe(400);
    });
  });

  describe('on a listener of its own (ADMIN_PORT)', () => {
    let proxy: RunningProxy;
    beforeAll(async () => {
      proxy = await startProxy({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, ADMIN_TOKENS: OPERATORS, ADMIN_PORT: '0' });
    });
    afterAll(async () => {
      await proxy?.close();
    });

    it('the console, the admin API, the reports and /metrics are there and nowhere on the API port; the API is not there', async () => {
      expect(proxy.adminUrl).not.toBe(proxy.url);
      expect(serveBanner(proxy)).toContain(`admin surface (/admin, /metrics) on ${proxy.adminUrl}`);
      for (const path of ['/admin', '/admin/rollout', '/admin/fleet', '/admin/audit', '/admin/diff', '/admin/diff.json', '/metrics']) {
        const onApi = await call(proxy.url, 'GET', path, { token: TOKEN.val });
        expect([onApi.status, onApi.body.code], path).toEqual([404, 5]);
        expect((await call(proxy.adminUrl, 'GET', path, { token: TOKEN.val })).status, path).toBe(200);
      }
      expect((await call(proxy.url, 'POST', '/admin/rollout/kill', { token: TOKEN.oli })).status).toBe(404);
      const onAdmin = await call(proxy.adminUrl, 'GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice });
      expect([onAdmin.status, onAdmin.body.code]).toEqual([404, 5]);
      expect(onAdmin.headers.get('x-request-id')).toBeTruthy();
      // the API works as ever
      expect((await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice })).status).toBe(200);
      const refused = await call(proxy.adminUrl, 'POST', '/admin/rollout/routes/tags/list/promote', { token: TOKEN.oli });
      expect([refused.status, refused.body.message]).toEqual([403, 'Permission denied: oli has the operator role; this needs the admin role']);
    });
  });

  // Skipped only on a developer machine without redis-server; CI installs it and fails without it.
  it.skipIf(!HAVE_REDIS)('serve with REDIS_URL and no operator: no token made or printed, the admin API off (404), said once in the log', async () => {
    const redis = await startRedisServer();
    const logs = new LogCapture();
    const proxy = await startProxy({ V1_BASE_URL: h.url, ROLLOUT_FILE: file, REDIS_URL: redis.url, LOG_LEVEL: 'warn' }, logs);
    try {
      expect(proxy.adminTokenGenerated).toBe(false);
      expect(proxy.settings.adminToken).toBeUndefined();
      expect(serveBanner(proxy)).toContain('admin API: off (no operator is configured)');
      expect(serveBanner(proxy).join('\n')).not.toMatch(/adm-/);
      for (const token of [undefined, 'a-token-anyone-could-try']) {
        const res = await call(proxy.url, 'GET', '/admin/rollout', { token });
        expect([res.status, res.body.code, res.body.message]).toEqual([
          404,
          5,
          'Not found: the admin API is off: no operator is configured (ADMIN_TOKEN, ADMIN_TOKENS or ADMIN_TOKENS_FILE)',
        ]);
      }
      expect((await call(proxy.url, 'GET', '/metrics')).status).toBe(200);
      expect(logs.lines.filter((l) => l.includes('the admin API is off'))).toHaveLength(1);
    } finally {
      await proxy.close();
      await redis.close();
    }
  });
});
