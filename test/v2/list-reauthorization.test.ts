import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/load-settings.js';
import { buildProxyApp } from '../../src/app/build-proxy-app.js';
import { type EmulatorHarness, call, startHarness } from '../support/emulator-harness.js';
import { A_TEAM, A_TEAM_SUB, DEV_TOKEN, TOKENS, childUid } from '../support/fixtures.js';
import { settingsFrom } from '../support/proxy-harness.js';

describe('AIP-158: a kept list snapshot is re-authorized, so revoked access ends within LIST_REAUTH_MS (default 500 ms, test clock)', () => {
  let h: EmulatorHarness;
  let app: FastifyInstance;
  let url: string;
  let clock = Date.parse('2026-11-22T10:00:00Z');
  const stats = async () => (await h.dev('GET', '/__emulator/stats')).body as { total: number; requests: Record<string, number> };
  const reset = () => h.dev('POST', '/__emulator/stats/reset');
  const page = (token = '') =>
    call(url, 'GET', `/iam/v2beta1/groups?uidp.descendants_of=${A_TEAM}&order_by=name&page_size=1${token ? `&page_token=${token}` : ''}`, {
      token: TOKENS.carol,
    });

  beforeAll(async () => {
    h = await startHarness();
    app = await buildProxyApp(resolveSettings(settingsFrom({ V1_BASE_URL: h.url }), h.url, 0), { now: () => clock });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  it('pages within the interval cost nothing; the next page after it costs one by-uid v1 read; after the binding is deleted, the next page shows nothing of the group', async () => {
    const other = await call(h.url, 'POST', `/iam/v1/groups/${A_TEAM}`, { token: DEV_TOKEN, body: { name: 'sub2' } });
    expect(other.status).toBe(200);
    const first = await page();
    expect(first.status).toBe(200);
    expect(first.body.groups.map((g: { uid: string }) => g.uid)).toEqual([A_TEAM_SUB]);
    expect(first.body.totalCount).toBe('2');

    await reset();
    clock += 100;
    const again = await page(first.body.nextPageToken);
    expect(again.body.groups.map((g: { uid: string }) => g.uid)).toEqual([other.body.id]);
    expect((await stats()).total).toBe(0);

    clock += 500;
    expect((await page(first.body.nextPageToken)).body.groups).toHaveLength(1);
    expect(await stats()).toEqual({ total: 1, requests: { 'GET /iam/v1/groups': 1 } });

    // v1 revokes carol's access to the team
    expect((await call(h.url, 'DELETE', `/iam/v1/rolebindings/${childUid(A_TEAM, 'rb-carol')}`, { token: DEV_TOKEN })).status).toBe(200);
    await reset();
    clock += 500;
    const revoked = await page(first.body.nextPageToken);
    // the re-check fails, the whole list is read again as v1 now answers it: nothing to show
    expect(await stats()).toEqual({ total: 2, requests: { 'GET /iam/v1/groups': 2 } });
    expect(revoked.status === 200 ? revoked.body.groups : []).toEqual([]);
    expect(revoked.status === 200 ? revoked.body.totalCount : '0').toBe('0');
  });
});
