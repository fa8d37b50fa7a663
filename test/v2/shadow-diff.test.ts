import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningDemo } from '../../src/commands/demo.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import { type Answer, call } from '../support/emulator-harness.js';
import { DEV_TOKEN } from '../support/fixtures.js';
import { startDemo } from '../support/proxy-harness.js';

const ADMIN = 'admin-token-for-shadow-tests';
const TIMES = 'ignore: [createTime, updateTime, "groups[].createTime", "groups[].updateTime"]';

function rolloutFile(yaml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-shadow-')), 'rollout.yaml');
  writeFileSync(file, yaml);
  return file;
}

/** The embedded demo (emulator in-process, its native v2 surface as the native backend) with a rollout file. */
async function demo(yaml: string, env: Record<string, string> = {}): Promise<{ proxy: RunningDemo; emu: RunningEmulator; file: string }> {
  const file = rolloutFile(yaml);
  const proxy = await startDemo({ ROLLOUT_FILE: file, ADMIN_TOKEN: ADMIN, DEV_TOKEN, ...env });
  return { proxy, emu: proxy.emulator, file };
}

const get = (base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> => call(base, 'GET', path, { token: DEV_TOKEN, headers });
const report = async (base: string) => (await call(base, 'GET', '/admin/diff.json', { token: ADMIN })).body as { routes: any[] };
const route = async (base: string, resource: string, operation: string) =>
  (await report(base)).routes.find((r) => r.resource === resource && r.operation === operation);

/** Waits (bounded) until the shadows of a route are all booked: compared, errors and skipped add up. */
async function settled(base: string, resource: string, operation: string, count: number): Promise<any> {
  const deadline = Date.now() + 8000;
  for (;;) {
    const r = await route(base, resource, operation);
    if (r && r.compared + r.errors + r.skipped >= count) return r;
    if (Date.now() > deadline) throw new Error(`${resource} ${operation}: ${JSON.stringify(r)} after 8 s, wanted ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('live shadow reads on the embedded demo', () => {
  let env: Awaited<ReturnType<typeof demo>>;
  let url: string;
  beforeAll(async () => {
    env = await demo(
      `routes:\n  - resource: groups\n    operations: [list, get, create]\n    shadow: 100\n    ${TIMES}\n` +
        '  - resource: tags\n    operations: [list, get]\n    shadow: 100\n',
    );
    url = env.proxy.url;
  });
  afterEach(async () => {
    await call(env.emu.url, 'DELETE', '/__emulator/faults', { token: DEV_TOKEN });
  });
  afterAll(() => env.proxy.close());

  it('reports a difference planted on the native side, with its samples, while an untouched route matches', async () => {
    await call(env.emu.url, 'POST', '/__emulator/faults', {
      token: DEV_TOKEN,
      body: { rules: [{ prefix: '/iam/v2beta1/groups', set: { description: 'planted' } }] },
    });
    const list = await get(url, '/iam/v2beta1/groups?page_size=200');
    expect(list.headers.get('x-v2proxy-backend')).toBe('translate');
    const uids: string[] = list.body.groups.slice(0, 3).map((g: { uid: string }) => g.uid);
    const ids: string[] = [];
    for (const uid of uids) {
      const one = await get(url, `/iam/v2beta1/groups/${uid}`);
      // the shadow's answer never reaches the caller
      expect(one.body.description).not.toBe('planted');
      ids.push(one.headers.get('x-request-id') ?? '');
    }
    const tags = await get(url, '/registry/v2beta1/tags?page_size=200');
    for (const t of tags.body.tags.slice(0, 2)) await get(url, `/registry/v2beta1/tags/${t.uid}`);

    const groupsGet = await settled(url, 'groups', 'get', 3);
    expect(groupsGet).toMatchObject({ compared: 3, matched: 0, differed: 3, errors: 0, skipped: 0 });
    expect(groupsGet.fields).toEqual([
      {
        path: 'description',
        kind: 'value',
        differences: 3,
        noise: 0,
        reported: true,
        // three reads: fewer than a verdict needs
        verdict: expect.objectContaining({ verdict: 'inconclusive', why: '3 of the 200 compared reads needed (the minimum per side)' }),
        readsToDecide: 197,
        samples: ids.map((requestId, i) => ({
          requestId,
          url: `/iam/v2beta1/groups/${uids[i]}`,
          primary: expect.stringMatching(/^[0-9a-f]{12}$/),
          secondary: expect.stringMatching(/^[0-9a-f]{12}$/),
          at: expect.any(Number),
        })),
      },
    ]);
    expect((await settled(url, 'groups', 'list', 1)).fields.map((f: { path: string; reported: boolean }) => [f.path, f.reported])).toEqual([
      ['groups[].description', true],
    ]);
    expect(await settled(url, 'tags', 'list', 1)).toMatchObject({ compared: 1, matched: 1, differed: 0, fields: [] });
    expect(await settled(url, 'tags', 'get', 2)).toMatchObject({ compared: 2, matched: 2, differed: 0, fields: [] });
    // no value leaves in a sample unless DIFF_SAMPLE_VALUES is set
    expect(JSON.stringify(await report(url))).not.toContain('planted');
    const metrics = (await call(url, 'GET', '/metrics')).body as string;
    expect(metrics).toMatch(/^v2proxy_shadow_total\{resource="groups",operation="get",outcome="differ"\} 3$/m);
    expect(metrics).toMatch(/^v2proxy_shadow_total\{resource="tags",operation="get",outcome="match"\} 2$/m);
  });

  it('never sends a write twice, and skips continued pages (each side reads only its own tokens)', async () => {
    await call(url, 'POST', '/admin/diff/reset', { token: ADMIN });
    await call(env.emu.url, 'POST', '/__emulator/stats/reset');
    const made = await call(url, 'POST', `/iam/v2beta1/groups/${env.emu.demoOrg}`, { token: DEV_TOKEN, body: { name: 'shadowless' } });
    expect(made.status).toBe(200);
    const first = await get(url, '/iam/v2beta1/groups?page_size=2');
    await get(url, `/iam/v2beta1/groups?page_size=2&page_token=${first.body.nextPageToken}`);
    expect(await settled(url, 'groups', 'create', 1)).toMatchObject({ compared: 0, skipped: 1 });
    expect(await settled(url, 'groups', 'list', 2)).toMatchObject({ compared: 1, skipped: 1 });
    const stats = (await call(env.emu.url, 'GET', '/__emulator/stats')).body as { requests: Record<string, number> };
    expect(Object.keys(stats.requests).filter((k) => k.startsWith('POST /iam/v2beta1'))).toEqual([]);
    expect(Object.keys(stats.requests).filter((k) => k.startsWith('POST /iam/v1/groups'))).toHaveLength(1);
  });

  it('shows the report as a page and resets it', async () => {
    const page = await call(url, 'GET', '/admin/diff', { token: ADMIN });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.body).toContain('data-route="groups list"');
    expect((await call(url, 'GET', '/admin/diff')).status).toBe(401);
    expect((await call(url, 'GET', '/admin/diff.json', { token: DEV_TOKEN })).status).toBe(401);
    expect((await call(url, 'POST', '/admin/diff/reset', { token: ADMIN })).body).toEqual({ routes: [], writes: [] });
  });
});

describe('shadow bounds and the guard', () => {
  it('runs at most SHADOW_MAX_INFLIGHT shadows at once and skips the rest; the client never waits for one', async () => {
    const { proxy, emu } = await demo('routes:\n  - resource: roles\n    operations: [list]\n    shadow: 100\n', {
      SHADOW_MAX_INFLIGHT: '1',
      V2_TIMEOUT_MS: '1500',
    });
    try {
      // the native side never answers: a client waiting on its shadow would never get its answer
      await call(emu.url, 'POST', '/__emulator/faults', { token: DEV_TOKEN, body: { rules: [{ prefix: '/iam/v2beta1/roles', hang: true }] } });
      for (let i = 0; i < 4; i += 1) expect((await get(proxy.url, '/iam/v2beta1/roles')).status).toBe(200);
      const r = await settled(proxy.url, 'roles', 'list', 4);
      expect(r).toMatchObject({ compared: 0, errors: 1, skipped: 3 });
    } finally {
      await proxy.close();
    }
  });

  it('rolls a route back to translation when its share of reads with a reported difference passes guard.maxDiffRate', async () => {
    const { proxy, emu } = await demo(
      `routes:\n  - resource: groups\n    operations: [get]\n    native: 100\n    shadow: 100\n    ${TIMES}\n` +
        'guard:\n  windowSeconds: 60\n  minRequests: 5\n  maxErrorRate: 0.5\n  maxDiffRate: 0.5\n  cooldownSeconds: 60\n',
    );
    try {
      await call(emu.url, 'POST', '/__emulator/faults', {
        token: DEV_TOKEN,
        body: { rules: [{ prefix: '/iam/v2beta1/groups', set: { description: 'planted' } }] },
      });
      const org = emu.demoOrg as string;
      for (let i = 1; i <= 5; i += 1) {
        const res = await get(proxy.url, `/iam/v2beta1/groups/${org}`);
        expect(res.headers.get('x-v2proxy-backend')).toBe('native');
        await settled(proxy.url, 'groups', 'get', i);
      }
      const after = await get(proxy.url, `/iam/v2beta1/groups/${org}`);
      expect(after.headers.get('x-v2proxy-backend')).toBe('translate');
      expect(after.body.description).toBe('Demo organization');
      const status = (await call(proxy.url, 'GET', '/admin/rollout', { token: ADMIN })).body;
      expect(status.routes[0]).toMatchObject({ rolledBack: true, rollbacks: 1, effectiveNative: 0 });
    } finally {
      await proxy.close();
    }
  });
});

describe('the noise baseline on live traffic', () => {
  let noisy: Server;
  let env: Awaited<ReturnType<typeof demo>>;
  beforeAll(async () => {
    // a native backend whose answers carry a field that changes on every call, and one planted difference
    let upstream = '';
    noisy = createServer((req, res) => {
      fetch(`${upstream}${req.url}`, { headers: { authorization: req.headers.authorization ?? '' } })
        .then(async (r) => {
          const body = (await r.json()) as Record<string, unknown>;
          const stamp = (o: Record<string, unknown>) => ({ ...o, etag: Math.random().toString(36), region: 'eu' });
          const out = Array.isArray(body.groups) ? { ...body, groups: body.groups.map(stamp) } : stamp(body);
          res.writeHead(r.status, { 'content-type': 'application/json' }).end(JSON.stringify(out));
        })
        .catch(() => res.writeHead(502).end());
    });
    await new Promise<void>((resolve) => noisy.listen(0, '127.0.0.1', resolve));
    env = await demo(`routes:\n  - resource: groups\n    operations: [get]\n    native: 100\n    shadow: 100\n    noise: 100\n    ${TIMES}\n`, {
      V2_BASE_URL: `http://127.0.0.1:${(noisy.address() as AddressInfo).port}`,
    });
    upstream = env.emu.v2Url as string;
  });
  afterAll(async () => {
    await env.proxy.close();
    noisy.closeAllConnections();
    await new Promise((resolve) => noisy.close(resolve));
  });

  it('hides a field that differs on every call of the serving side, and reports one that differs only across sides', async () => {
    for (let i = 0; i < 6; i += 1) expect((await get(env.proxy.url, `/iam/v2beta1/groups/${env.emu.demoOrg}`)).headers.get('x-v2proxy-backend')).toBe('native');
    const r = await settled(env.proxy.url, 'groups', 'get', 6);
    const fields = Object.fromEntries(
      r.fields.map((f: { path: string; differences: number; noise: number; reported: boolean }) => [f.path, [f.differences, f.noise, f.reported]]),
    );
    expect(fields).toEqual({ region: [6, 0, true], etag: [6, 6, false] });
  });
});
