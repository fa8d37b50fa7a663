import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/load-settings.js';
import { buildProxyApp } from '../../src/app/build-proxy-app.js';
import { A, A_TEAM, B, DEV_TOKEN, REPO_A } from '../support/fixtures.js';
import { type Answer, type EmulatorHarness, call, startHarness } from '../support/emulator-harness.js';
import { settingsFrom } from '../support/proxy-harness.js';

const T0 = Date.parse('2026-11-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('createTime/updateTime for resources v1 keeps no times for (src/meta)', () => {
  let h: EmulatorHarness;
  let clock = T0;
  const apps: FastifyInstance[] = [];
  let url: string;

  /** a proxy on the emulator whose clock the test sets */
  async function proxyOn(env: Record<string, string> = {}): Promise<{ app: FastifyInstance; url: string }> {
    const settings = resolveSettings(settingsFrom({ V1_BASE_URL: h.url, ...env }), h.url, 0);
    const app = await buildProxyApp(settings, { now: () => clock });
    await app.listen({ host: '127.0.0.1', port: 0 });
    apps.push(app);
    return { app, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
  }
  const v2 = (method: string, path: string, body?: unknown, base = url): Promise<Answer> =>
    call(base, method, path, { token: DEV_TOKEN, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    h = await startHarness();
    url = (await proxyOn()).url;
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await h.close();
  });

  it('a resource made outside the proxy: first seen, then stable; updateTime moves when v1 shows a change', async () => {
    clock = T0;
    const first = await v2('GET', `/iam/v2beta1/groups/${A}`);
    expect(first.body).toMatchObject({ createTime: iso(T0), updateTime: iso(T0) });
    clock = T0 + 60_000;
    expect((await v2('GET', `/iam/v2beta1/groups/${A}`)).body).toMatchObject({ createTime: iso(T0), updateTime: iso(T0) });
    // the same times in a list
    const listed = await v2('GET', `/iam/v2beta1/groups?uidp.ids=${A}`);
    expect(listed.body.groups[0]).toMatchObject({ uid: A, createTime: iso(T0), updateTime: iso(T0) });
    // changed behind the proxy's back
    const v1 = (await call(h.url, 'GET', `/iam/v1/groups?id=${A}`, { token: DEV_TOKEN })).body.items[0];
    await call(h.url, 'PUT', `/iam/v1/groups/${A}`, { token: DEV_TOKEN, body: { ...v1, description: 'changed in v1' } });
    clock = T0 + 120_000;
    expect((await v2('GET', `/iam/v2beta1/groups/${A}`)).body).toMatchObject({
      description: 'changed in v1',
      createTime: iso(T0),
      updateTime: iso(T0 + 120_000),
    });
    clock = T0 + 180_000;
    expect((await v2('GET', `/iam/v2beta1/groups/${A}`)).body).toMatchObject({ createTime: iso(T0), updateTime: iso(T0 + 120_000) });
  });

  it('created and updated through the proxy: exact times, kept by the reads that follow', async () => {
    clock = T0 + 1_000_000;
    const created = await v2('POST', `/iam/v2beta1/roles/${B}`, { name: 'timed', capabilities: ['CAP_IAM_GROUPS_LIST'] });
    expect(created.body).toMatchObject({ createTime: iso(clock), updateTime: iso(clock) });
    clock += 5_000;
    expect((await v2('GET', `/iam/v2beta1/roles/${created.body.uid}`)).body).toMatchObject({
      createTime: iso(T0 + 1_000_000),
      updateTime: iso(T0 + 1_000_000),
    });
    clock += 5_000;
    const patched = await v2('PATCH', `/iam/v2beta1/roles/${created.body.uid}`, { description: 'now described' });
    expect(patched.body).toMatchObject({ description: 'now described', createTime: iso(T0 + 1_000_000), updateTime: iso(T0 + 1_010_000) });
    clock += 5_000;
    expect((await v2('GET', `/iam/v2beta1/roles/${created.body.uid}`)).body).toMatchObject({
      createTime: iso(T0 + 1_000_000),
      updateTime: iso(T0 + 1_010_000),
    });
  });

  it('a PATCH that changes nothing writes nothing to v1 and moves no updateTime', async () => {
    clock = T0 + 2_000_000;
    const created = await v2('POST', `/iam/v2beta1/groups/${B}`, { name: 'still', description: 'same' });
    clock += 5_000;
    await call(h.url, 'POST', '/__emulator/stats/reset');
    for (const body of [{ description: 'same' }, { name: 'still', description: 'same' }, {}]) {
      const res = await v2('PATCH', `/iam/v2beta1/groups/${created.body.uid}`, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(created.body);
    }
    const stats = (await call(h.url, 'GET', '/__emulator/stats')).body as { requests: Record<string, number> };
    expect(Object.keys(stats.requests).filter((k) => k.startsWith('PUT '))).toEqual([]);
    // a real change still writes, and moves updateTime
    const changed = await v2('PATCH', `/iam/v2beta1/groups/${created.body.uid}`, { description: 'different' });
    expect(changed.body).toMatchObject({ description: 'different', createTime: iso(T0 + 2_000_000), updateTime: iso(T0 + 2_005_000) });
  });

  it('repos keep their own createTime; updateTime starts there', async () => {
    const repo = await v2('GET', `/registry/v2beta1/repos/${REPO_A}`);
    expect(repo.body).toMatchObject({ createTime: '2025-10-01T00:00:00.000Z', updateTime: '2025-10-01T00:00:00.000Z' });
  });

  it('lists sort by the synthesized times, across page tokens', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      clock = T0 + 2_000_000 - i * 1000; // each created "earlier" than the one before
      made.push((await v2('POST', `/iam/v2beta1/groups/${A_TEAM}`, { name: `timed-${i}` })).body.uid);
    }
    const walk = async (orderBy: string) => {
      const seen: { uid: string; createTime: string; updateTime: string }[] = [];
      let token = '';
      do {
        const res = await v2(
          'GET',
          `/iam/v2beta1/groups?uidp.children_of=${A_TEAM}&order_by=${encodeURIComponent(orderBy)}&page_size=2${token ? `&page_token=${token}` : ''}`,
        );
        expect(res.status).toBe(200);
        seen.push(...res.body.groups);
        token = res.body.nextPageToken;
      } while (token);
      return seen.filter((g) => made.includes(g.uid)).map((g) => g.uid);
    };
    expect(await walk('create_time')).toEqual([...made].reverse());
    expect(await walk('createTime desc')).toEqual(made);
    // a PATCH moves one group to the end of update_time order
    clock = T0 + 3_000_000;
    await v2('PATCH', `/iam/v2beta1/groups/${made[4]}`, { description: 'touched' });
    expect((await walk('update_time')).at(-1)).toBe(made[4]);
  });

  it('META_STORE=file:<path> keeps every time across a restart', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'v2proxy-meta-')), 'times.jsonl');
    const one = await proxyOn({ META_STORE: `file:${path}` });
    clock = T0 + 9_000_000;
    const created = await v2('POST', `/iam/v2beta1/groups/${B}`, { name: 'durable' }, one.url);
    const seen = await v2('GET', `/iam/v2beta1/groups/${A_TEAM}`, undefined, one.url);
    await one.app.close();
    clock = T0 + 9_500_000;
    const two = await proxyOn({ META_STORE: `file:${path}` });
    expect((await v2('GET', `/iam/v2beta1/groups/${created.body.uid}`, undefined, two.url)).body).toMatchObject({
      createTime: iso(T0 + 9_000_000),
      updateTime: iso(T0 + 9_000_000),
    });
    expect((await v2('GET', `/iam/v2beta1/groups/${A_TEAM}`, undefined, two.url)).body).toMatchObject({
      createTime: seen.body.createTime,
      updateTime: seen.body.updateTime,
    });
    // a fresh memory store would say "first seen now" instead
    const fresh = await proxyOn();
    expect((await v2('GET', `/iam/v2beta1/groups/${created.body.uid}`, undefined, fresh.url)).body.createTime).toBe(iso(T0 + 9_500_000));
  });

  it('an invalid META_STORE is refused at start with one line', () => {
    expect(() => settingsFrom({ META_STORE: 'redis://x' })).toThrow('META_STORE: must be memory, redis or file:<path>');
  });
});
