import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PageTokenCodec } from '../../src/list/page-token.js';
import { until } from '../support/until.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/load-settings.js';
import { buildProxyApp } from '../../src/app/build-proxy-app.js';
import { aipError } from '../support/aip.js';
import { type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, A_TEAM, childUid, DEV_TOKEN, TOKENS, twoTenantSeed } from '../support/fixtures.js';
import { settingsFrom } from '../support/proxy-harness.js';
import { startRecordingUpstream } from '../support/recording-upstream.js';

const ADMIN = 'admin-token-for-tests-0123';
const SECRET = 'override-secret-of-the-operators';
const FORCE = (side: 'native' | 'translate') => ({ 'x-v2proxy-backend': side, 'x-v2proxy-override-secret': SECRET });
const BULK = 23;

interface Sent {
  method?: string;
  token?: string | undefined;
  headers?: Record<string, string>;
  body?: unknown;
}

describe('gradual rollout: routing v2 requests between translation and a native backend', () => {
  let h: EmulatorHarness;
  let app: FastifyInstance;
  let file: string;
  let clock = Date.parse('2026-06-01T00:00:00Z');

  const write = (yaml: string) => writeFileSync(file, yaml);
  const send = (url: string, o: Sent = {}) =>
    app.inject({
      method: (o.method ?? 'GET') as 'GET',
      url,
      headers: { ...(o.token === undefined ? {} : { authorization: `Bearer ${o.token}` }), ...o.headers },
      ...(o.body === undefined ? {} : { payload: o.body as object }),
    });
  const side = (res: { headers: Record<string, unknown> }) => res.headers['x-v2proxy-backend'];
  const admin = (method: 'GET' | 'POST', path: string, token = ADMIN) =>
    app.inject({ method, url: `/admin/rollout${path}`, headers: { authorization: `Bearer ${token}` } });
  const reload = async (yaml: string) => {
    write(yaml);
    const res = await admin('POST', '/reload');
    expect(res.statusCode, res.body).toBe(200);
  };
  const metrics = async () => (await app.inject({ method: 'GET', url: '/metrics' })).body;

  beforeAll(async () => {
    const seed = twoTenantSeed();
    for (let i = 0; i < BULK; i += 1) seed.groups?.push({ id: childUid(A_TEAM, `bulk-${i}`), name: `bulk-${i}`, description: '' });
    h = await startHarness({ seed });
    file = join(mkdtempSync(join(tmpdir(), 'v2proxy-rollout-')), 'rollout.yaml');
    write('routes: []\n');
    const env = { V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, ADMIN_TOKEN: ADMIN, ROLLOUT_OVERRIDE_SECRET: SECRET };
    app = await buildProxyApp(resolveSettings(settingsFrom(env), h.url, 0), { now: () => clock });
  });
  beforeEach(async () => {
    await h.dev('DELETE', '/__emulator/faults');
    await admin('POST', '/resume');
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  it('translates everything without a rollout file, and says so on every v2 answer', async () => {
    const plain = await buildProxyApp(resolveSettings(settingsFrom({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url }), h.url, 0));
    try {
      for (const url of ['/iam/v2beta1/groups', `/iam/v2beta1/groups/${A}`, '/iam/v2beta1/nothing']) {
        const res = await plain.inject({ method: 'GET', url, headers: { authorization: `Bearer ${DEV_TOKEN}`, ...FORCE('native') } });
        expect(side(res), url).toBe('translate');
      }
      // a page token the proxy did not issue is not sent native without a rollout file: it is refused here
      const foreign = await plain.inject({
        method: 'GET',
        url: '/iam/v2beta1/groups?page_token=not-one-of-ours',
        headers: { authorization: `Bearer ${DEV_TOKEN}` },
      });
      expect(side(foreign)).toBe('translate');
      expect(foreign.json().code).toBe(3);
      // even an answer fastify makes before the v2 handler runs (malformed JSON)
      const malformed = await plain.inject({
        method: 'POST',
        url: `/iam/v2beta1/groups/${A}`,
        headers: { 'content-type': 'application/json' },
        payload: '{"name":',
      });
      expect(malformed.statusCode).toBe(400);
      expect(side(malformed)).toBe('translate');
    } finally {
      await plain.close();
    }
  });

  it('sends 0, 30 and 100 percent of many callers to native, each caller always to the same side, growing monotonically', async () => {
    const callers = Array.from({ length: 300 }, (_, i) => `caller-token-${i}`);
    const nativeAt = async (percent: number) => {
      await reload(`stickyBy: token\nroutes:\n  - resource: groups\n    operations: [list]\n    native: ${percent}\n`);
      const set = new Set<string>();
      for (const token of callers) if (side(await send('/iam/v2beta1/groups', { token })) === 'native') set.add(token);
      return set;
    };
    expect((await nativeAt(0)).size).toBe(0);
    const thirty = await nativeAt(30);
    expect(thirty.size / callers.length).toBeGreaterThan(0.2);
    expect(thirty.size / callers.length).toBeLessThan(0.4);
    // the same callers again: the same sides
    const again = new Set<string>();
    for (const token of callers) if (side(await send('/iam/v2beta1/groups', { token })) === 'native') again.add(token);
    expect(again).toEqual(thirty);
    const sixty = await nativeAt(60);
    for (const token of thirty) expect(sixty.has(token)).toBe(true);
    expect((await nativeAt(100)).size).toBe(callers.length);
    // an operation the route does not name stays translated
    expect(side(await send(`/iam/v2beta1/groups/${A}`, { token: callers[0] }))).toBe('translate');
  });

  it('passes native requests through faithfully: status and body as the native backend gave them, errors included', async () => {
    await reload('routes:\n  - resource: "*"\n    native: 100\n');
    for (const url of [
      `/iam/v2beta1/groups/${A}`,
      `/iam/v2beta1/groups?uidp.children_of=${A_TEAM}&page_size=3`,
      '/iam/v2beta1/groups?page_size=-4',
      `/iam/v2beta1/groups/${childUid(A, 'absent')}`,
    ]) {
      const through = await send(url, { token: DEV_TOKEN });
      const direct = await fetch(`${h.v2url}${url}`, { headers: { authorization: `Bearer ${DEV_TOKEN}` } });
      expect(side(through)).toBe('native');
      expect(through.statusCode, url).toBe(direct.status);
      // a native page token carries its issue time; everything else is byte for byte
      const untimed = (text: string) => text.replace(/"nextPageToken":"[\w-]+"/, '"nextPageToken":"…"');
      expect(untimed(through.body), url).toBe(untimed(await direct.text()));
    }
    // a write goes native too, and lands in the shared store
    const made = await send(`/iam/v2beta1/groups/${A}`, { method: 'POST', token: TOKENS.alice, body: { name: 'made-natively' } });
    expect(side(made)).toBe('native');
    expect(made.statusCode).toBe(200);
    expect((await h.dev('GET', `/iam/v1/groups?id=${made.json().uid}`)).body.items).toHaveLength(1);
  });

  it('forwards method, path, query, body, Authorization and x-request-id to the native backend', async () => {
    const upstream = await startRecordingUpstream();
    upstream.answer = { status: 409, body: '{"code":10,"message":"native says no","details":[]}', headers: { 'x-native': 'yes' } };
    write('routes:\n  - resource: groups\n    native: 100\n');
    const other = await buildProxyApp(resolveSettings(settingsFrom({ V1_BASE_URL: h.url, V2_BASE_URL: upstream.url, ROLLOUT_FILE: file }), h.url, 0), {
      watchRollout: false,
    });
    try {
      const res = await other.inject({
        method: 'PATCH',
        url: `/iam/v2beta1/groups/${A}?update_mask=description&x=1&x=2`,
        headers: { authorization: 'Bearer caller-token', 'x-request-id': 'req-12345', 'content-type': 'application/json' },
        payload: { description: 'new' },
      });
      expect(res.statusCode).toBe(409);
      expect(res.body).toBe('{"code":10,"message":"native says no","details":[]}');
      expect(res.headers['x-v2proxy-backend']).toBe('native');
      expect(res.headers['x-request-id']).toBe('req-12345');
      const [seen] = upstream.requests;
      expect(seen?.method).toBe('PATCH');
      expect(seen?.url).toBe(`/iam/v2beta1/groups/${A}?update_mask=description&x=1&x=2`);
      expect(seen?.headers.authorization).toBe('Bearer caller-token');
      expect(seen?.headers['x-request-id']).toBe('req-12345');
      expect(JSON.parse(seen?.body.toString() ?? '')).toEqual({ description: 'new' });
    } finally {
      await other.close();
      await upstream.close();
    }
  });

  it("honours x-v2proxy-backend only with the operators' secret and allowOverride: true; forced traffic is counted apart", async () => {
    await reload('allowOverride: true\nroutes:\n  - resource: groups\n    native: 0\n');
    // without the secret, or with a wrong or repeated one, the header is any client's: the bucket decides
    for (const secret of [undefined, 'not-the-secret-of-anyone', [SECRET, SECRET]]) {
      const headers = { 'x-v2proxy-backend': 'native', ...(secret === undefined ? {} : { 'x-v2proxy-override-secret': secret as string }) };
      expect(side(await send('/iam/v2beta1/groups', { token: DEV_TOKEN, headers })), String(secret)).toBe('translate');
    }
    expect(side(await send('/iam/v2beta1/groups', { token: DEV_TOKEN, headers: FORCE('native') }))).toBe('native');
    await reload('allowOverride: true\nroutes:\n  - resource: groups\n    native: 100\n');
    expect(side(await send('/iam/v2beta1/groups', { token: DEV_TOKEN, headers: FORCE('translate') }))).toBe('translate');
    expect((await admin('GET', '')).json().routes[0].served.override).toBeGreaterThanOrEqual(1);
    expect(await metrics()).toMatch(
      /^v2proxy_requests_total\{protocol="rest",resource="groups",operation="list",backend="native",status="200",outcome="answered",decision="override"\} 1$/m,
    );
    // allowOverride defaults to false: the secret alone moves nothing
    await reload('routes:\n  - resource: groups\n    native: 100\n');
    expect(side(await send('/iam/v2beta1/groups', { token: DEV_TOKEN, headers: FORCE('translate') }))).toBe('native');
  });

  it('keeps a list walk on the side that issued its page token, whatever the percentages do meanwhile', async () => {
    const walk = async (flipTo: number) => {
      const seen: string[] = [];
      const sides = new Set<unknown>();
      let token = '';
      for (let i = 0; i < 20; i += 1) {
        const res = await send(`/iam/v2beta1/groups?uidp.children_of=${A_TEAM}&page_size=5${token ? `&page_token=${token}` : ''}`, { token: DEV_TOKEN });
        expect(res.statusCode, res.body).toBe(200);
        sides.add(side(res));
        seen.push(...res.json().groups.map((g: { uid: string }) => g.uid));
        token = res.json().nextPageToken;
        if (i === 0) await reload(`routes:\n  - resource: groups\n    native: ${flipTo}\n`);
        if (token === '') break;
      }
      return { seen, sides: [...sides] };
    };
    await reload('routes:\n  - resource: groups\n    native: 100\n');
    const native = await walk(1);
    expect(native.sides).toEqual(['native']);
    expect(new Set(native.seen).size).toBe(BULK + 1);
    await reload('routes:\n  - resource: groups\n    native: 0\n');
    const translated = await walk(100);
    expect(translated.sides).toEqual(['translate']);
    expect([...translated.seen].sort()).toEqual([...native.seen].sort());
  });

  it('a page token this proxy did not issue goes native wherever a route serves the list, share 0 included; elsewhere translation refuses it', async () => {
    await reload('routes:\n  - resource: groups\n    native: 100\n');
    const first = await send(`/iam/v2beta1/groups?uidp.children_of=${A_TEAM}&page_size=5`, { token: DEV_TOKEN });
    const nativeToken = first.json().nextPageToken as string;
    expect(side(first)).toBe('native');
    // a token sealed with another PAGE_TOKEN_SECRET (a rotated secret, another deployment's replica)
    const other = new PageTokenCodec('another-secret-of-another-deployment');
    const foreign = other.seal({ binding: 'x', after: ['a'], issuedAt: clock });
    for (const token of [nativeToken, foreign, 'garbage']) {
      expect(side(await send(`/iam/v2beta1/groups?uidp.children_of=${A_TEAM}&page_size=5&page_token=${token}`, { token: DEV_TOKEN })), token).toBe('native');
    }
    // the route's share is 0 now: a walk begun native still finishes there
    await reload('routes:\n  - resource: groups\n    native: 0\n');
    const next = await send(`/iam/v2beta1/groups?uidp.children_of=${A_TEAM}&page_size=5&page_token=${nativeToken}`, { token: DEV_TOKEN });
    expect([side(next), next.statusCode]).toEqual(['native', 200]);
    // no route for roles, and the kill switch: nothing goes native, the token is refused as not ours
    const refused = async (url: string, token: string) => {
      const res = await send(`${url}?page_size=5&page_token=${token}`, { token: DEV_TOKEN });
      expect(side(res), `${url} ${token}`).toBe('translate');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 3, details: [{ reason: 'INVALID_ARGUMENT' }, { fieldViolations: [{ field: 'page_token' }] }] });
    };
    await refused('/iam/v2beta1/roles', 'garbage');
    await admin('POST', '/kill');
    await refused('/iam/v2beta1/groups', nativeToken);
    await admin('POST', '/resume');
  });

  it('the kill switch sends everything to translation at once, from the admin API or the file', async () => {
    await reload('allowOverride: true\nroutes:\n  - resource: "*"\n    native: 100\n');
    expect(side(await send('/iam/v2beta1/groups', { token: DEV_TOKEN }))).toBe('native');
    const killed = await admin('POST', '/kill');
    expect(killed.json()).toMatchObject({ killSwitch: true, routes: [{ native: 100, effectiveNative: 0 }] });
    expect(side(await send('/iam/v2beta1/groups', { token: DEV_TOKEN }))).toBe('translate');
    expect(side(await send('/iam/v2beta1/groups', { token: DEV_TOKEN, headers: FORCE('native') }))).toBe('translate');
    await admin('POST', '/resume');
    expect(side(await send('/iam/v2beta1/groups', { token: DEV_TOKEN }))).toBe('native');
    await reload('killSwitch: true\nroutes:\n  - resource: "*"\n    native: 100\n');
    expect(side(await send('/iam/v2beta1/groups', { token: DEV_TOKEN }))).toBe('translate');
  });

  it('reloads a changed file by itself, on SIGHUP and on demand; a bad file is refused and the last good one stays', async () => {
    await reload('routes:\n  - resource: groups\n    native: 100\n');
    const before = (await admin('GET', '')).json();
    write('routes:\n  - resource: groups\n    native: 250\n');
    const refused = await admin('POST', '/reload');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(
      aipError(9, /^Precondition failed: the rollout file was refused.*routes\[0\]\.native: must be at most 100$/, 'FAILED_PRECONDITION'),
    );
    const after = (await admin('GET', '')).json();
    expect(after.lastError).toBe(`${file}: routes[0].native: must be at most 100`);
    expect(after.config).toEqual(before.config);
    expect(side(await send('/iam/v2beta1/groups', { token: DEV_TOKEN }))).toBe('native');
    expect(await metrics()).toMatch(/^v2proxy_rollout_reloads_total\{result="error"\} [1-9]/m);

    // SIGHUP rereads the file
    clock += 1000;
    write('routes:\n  - resource: groups\n    native: 0\n');
    process.emit('SIGHUP', 'SIGHUP');
    // read off the event loop: awaited
    const reread = await until(
      async () => (await admin('GET', '')).json(),
      (s) => s.lastError === null,
      'the file reread on SIGHUP',
    );
    expect(reread).toMatchObject({ lastError: null, routes: [{ native: 0 }], loadedAt: new Date(clock).toISOString() });

    // a change of the file is picked up without asking
    clock += 1000;
    write('routes:\n  - resource: groups\n    native: 40\n');
    const deadline = Date.now() + 5000;
    let seen: unknown;
    while (Date.now() < deadline) {
      seen = (await admin('GET', '')).json().routes[0]?.native;
      if (seen === 40) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(seen).toBe(40);
  });

  it('the guard rolls a route back to translation when native errors pass the threshold, and restores it after the cooldown', async () => {
    await reload(
      'routes:\n  - resource: groups\n    operations: [list, get]\n    native: 100\n' +
        'guard:\n  windowSeconds: 30\n  minRequests: 10\n  maxErrorRate: 0.2\n  cooldownSeconds: 60\n',
    );
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/groups', status: 503 }] } });
    for (let i = 0; i < 10; i += 1) {
      const res = await send('/iam/v2beta1/groups', { token: DEV_TOKEN });
      // the native answer comes back unchanged until the guard trips
      expect(side(res)).toBe('native');
      expect(res.statusCode).toBe(503);
    }
    const rolled = await send('/iam/v2beta1/groups', { token: DEV_TOKEN });
    expect(side(rolled)).toBe('translate');
    expect(rolled.statusCode).toBe(200);
    const status = (await admin('GET', '')).json();
    expect(status.routes[0]).toMatchObject({
      native: 100,
      effectiveNative: 0,
      rolledBack: true,
      rollbacks: 1,
      rolledBackUntil: new Date(clock + 60_000).toISOString(),
    });
    expect(await metrics()).toMatch(/^v2proxy_rollout_rollbacks_total\{resource="groups"\} 1$/m);
    await h.dev('DELETE', '/__emulator/faults');
    clock += 59_000;
    expect(side(await send('/iam/v2beta1/groups', { token: DEV_TOKEN }))).toBe('translate');
    clock += 1_000;
    expect(side(await send('/iam/v2beta1/groups', { token: DEV_TOKEN }))).toBe('native');
  });

  it('opens /admin only with the admin token, answering 401 code 16 in the one error shape otherwise', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: `Bearer ${DEV_TOKEN}` }, { authorization: ADMIN }]) {
      for (const [method, url] of [
        ['GET', '/admin/rollout'],
        ['POST', '/admin/rollout/kill'],
        ['POST', '/admin/rollout/reload'],
      ] as const) {
        const res = await app.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.json()).toEqual(aipError(16, /^Unauthenticated: /, 'UNAUTHENTICATED'));
        expect(res.headers['x-request-id']).toBeTruthy();
      }
    }
    const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    const denied = await app.inject({ method: 'GET', url: '/admin/rollout', headers: { authorization: basic('admin', 'wrong-token-0123456789') } });
    expect(denied.statusCode).toBe(401);
    expect(denied.headers['www-authenticate']).toBe('Basic realm="v2proxy admin", charset="UTF-8"');
    expect((await app.inject({ method: 'GET', url: '/admin/rollout', headers: { authorization: basic('anyone', ADMIN) } })).statusCode).toBe(200);
    expect((await admin('GET', '')).json().killSwitch).toBe(false);
  });

  it('exports the request, upstream and rollout metrics, with no uid, tenant or token in any label', async () => {
    await reload('routes:\n  - resource: groups\n    native: 100\n');
    await send(`/iam/v2beta1/groups/${A}`, { token: DEV_TOKEN });
    await send(`/iam/v2beta1/roles/${A}`, { token: TOKENS.alice });
    const text = await metrics();
    expect(text).toMatch(
      /^v2proxy_requests_total\{protocol="rest",resource="groups",operation="get",backend="native",status="200",outcome="answered",decision="bucket"\} \d+$/m,
    );
    expect(text).toMatch(
      /^v2proxy_requests_total\{protocol="rest",resource="roles",operation="get",backend="translate",status="\d+",outcome="\w+",decision="no-route"\} \d+$/m,
    );
    expect(text).toMatch(/^v2proxy_request_duration_seconds_bucket\{le="0.005",protocol="rest",resource="groups",operation="get",backend="native"\} \d+$/m);
    expect(text).toMatch(/^v2proxy_upstream_requests_total\{upstream="v1",status="200",outcome="answered"\} \d+$/m);
    expect(text).toMatch(/^v2proxy_upstream_requests_total\{upstream="v2",status="200",outcome="answered"\} \d+$/m);
    expect(text).toMatch(/^v2proxy_rollout_reloads_total\{result="ok"\} \d+$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    const labels = text
      .split('\n')
      .filter((l) => l.startsWith('v2proxy_'))
      .map((l) => /\{[^}]*\}/.exec(l)?.[0] ?? '')
      .join('\n');
    expect(labels).toContain('resource="groups"');
    expect(labels).not.toMatch(/[0-9a-f]{16}/);
    expect(labels).not.toContain(DEV_TOKEN);
    expect(labels).not.toContain(TOKENS.alice);
  });
});
