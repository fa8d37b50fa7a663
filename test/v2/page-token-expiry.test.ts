import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { resolveSettings } from '../../src/config/load-settings.js';
import { TOKEN_LIFETIME_MS } from '../../src/list/page-token.js';
import { buildProxyApp } from '../../src/app/build-proxy-app.js';
import { A, DEV_TOKEN } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { settingsFrom } from '../support/proxy-harness.js';

describe('page token lifetime', () => {
  let h: EmulatorHarness;
  let app: FastifyInstance;
  let clock = Date.parse('2026-06-01T00:00:00Z');
  beforeAll(async () => {
    h = await startHarness();
    app = await buildProxyApp(resolveSettings(settingsFrom({ V1_BASE_URL: h.url, PAGE_TOKEN_SECRET: 'a-fixed-secret-for-tests' }), h.url, 0), {
      now: () => clock,
    });
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  const list = async (query: string) => {
    const res = await app.inject({
      method: 'GET',
      url: `/iam/v2beta1/groups?uidp.descendants_of=${A}&page_size=1${query}`,
      headers: { authorization: `Bearer ${DEV_TOKEN}` },
    });
    return { status: res.statusCode, body: res.json() as { groups: { uid: string }[]; nextPageToken: string } };
  };

  it('a token within three days continues; an older one restarts from the first page with no error', async () => {
    const first = await list('');
    const second = await list(`&page_token=${first.body.nextPageToken}`);
    expect(second.body.groups[0]?.uid).not.toBe(first.body.groups[0]?.uid);
    clock += TOKEN_LIFETIME_MS - 1000;
    expect((await list(`&page_token=${first.body.nextPageToken}`)).body.groups).toEqual(second.body.groups);
    clock += 2000;
    const restarted = await list(`&page_token=${first.body.nextPageToken}`);
    expect(restarted.status).toBe(200);
    expect(restarted.body.groups).toEqual(first.body.groups);
  });

  it('with PAGE_TOKEN_SECRET set, a token outlives the process that issued it', async () => {
    const first = await list('');
    const other = await buildProxyApp(resolveSettings(settingsFrom({ V1_BASE_URL: h.url, PAGE_TOKEN_SECRET: 'a-fixed-secret-for-tests' }), h.url, 0), {
      now: () => clock,
    });
    try {
      const res = await other.inject({
        method: 'GET',
        url: `/iam/v2beta1/groups?uidp.descendants_of=${A}&page_size=1&page_token=${first.body.nextPageToken}`,
        headers: { authorization: `Bearer ${DEV_TOKEN}` },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});
